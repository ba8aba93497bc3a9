/**
 * The add-in's IndexedDB tier (src/office/tiered-answers.ts) in real Chromium, through the built pane
 * and the Excel stand-in: cells filled, the page reloaded (a new page in the same browser context:
 * the same origin's storage) with OfficeRuntime.storage's shards gone, recalculated: 0 calls. And its
 * bad input: IndexedDB absent, throwing at open, failing every write, a quota of zero — each time the
 * cells fill, the shards keep the answers (a reload costs 0 calls), and the pane shows the problem
 * (absent is no problem: the runtime simply has none).
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM); skipped, with a message, without it.
 */
import type { BrowserContext, Page } from "playwright-core";
import * as data from "../../sandbox/dataset";
import { haveChromium, CHROMIUM, openPane, startHarness, type Harness, type StandIn } from "./harness";
import { saveKey } from "../support/pane";

if (!haveChromium) console.log(`IndexedDB tier tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;

jest.setTimeout(120_000);

let h: Harness;
let serial = 0;
type Win = Window & { __firmaStandIn: StandIn };
const N = 120;

const requestsOf = (key: string) => h.sandbox.requests.filter((r) => r.key === key).length;

/** Fills N names through the stand-in (a full recalculation) and returns the cells' values. */
async function fill(page: Page, cuis: number[]): Promise<unknown[]> {
  const sheet: Record<string, unknown> = {};
  cuis.forEach((c, i) => {
    sheet[`A${i + 1}`] = c;
    sheet[`B${i + 1}`] = `=FIRMA.DENUMIRE(A${i + 1})`;
  });
  return page.evaluate(
    async ([def, n]) => {
      const s = (window as unknown as Win).__firmaStandIn;
      await s.setup(def as Parameters<StandIn["setup"]>[0]);
      s.calculateAll();
      await s.idle();
      return Array.from({ length: n as number }, (_, i) => s.cell("Foaie1", `B${i + 1}`).value);
    },
    [{ sheets: { Foaie1: sheet } }, cuis.length] as const,
  );
}

/** What the IndexedDB tier holds: its records (meta and shards), read in the page. */
const idbRecords = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const req = indexedDB.open("firma-answers");
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains("shards")) return resolve(0);
          const c = db.transaction("shards").objectStore("shards").count();
          c.onsuccess = () => {
            db.close();
            resolve(c.result);
          };
        };
        req.onerror = () => resolve(-1);
      }),
  );

/**
 * Resolves once OfficeRuntime.storage's shards (here: localStorage) hold an answer for every one of
 * `cuis`: the cache's safety-net save (500 ms after the last answer) has run. Waited for rather than
 * slept for: a fixed 1.5 s was most of the time this file spent idle, and on a busy machine not always enough.
 */
const shardsHold = (page: Page, cuis: number[]) =>
  page.waitForFunction(
    (keys) => {
      const text = Object.keys(localStorage)
        .filter((k) => k.startsWith("firma.c2."))
        .map((k) => localStorage.getItem(k))
        .join("");
      return keys.every((k) => text.includes(k));
    },
    cuis.map((c) => JSON.stringify(`p:${c}`)),
    { timeout: 20_000, polling: 100 },
  );

/**
 * A reload: the pane again in a new page of the same context (its localStorage and IndexedDB), once
 * what it must find there is written: the answers for `cuis` in the shards; and, with `waitMs`, what
 * waits for IndexedDB's timer too.
 */
async function reopen(context: BrowserContext, old: Page, cuis: number[], waitMs = 0): Promise<Page> {
  if (cuis.length) await shardsHold(old, cuis);
  if (waitMs) await old.waitForTimeout(waitMs);
  await old.close();
  const page = await context.newPage();
  await page.goto(`${h.origin}/taskpane.html`);
  await page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false", null, { timeout: 20_000 });
  return page;
}

/** The pane's cache problem: its kind, or null when none is shown. */
async function shownProblem(page: Page): Promise<string | null> {
  const box = await page.$("#cache-problem");
  if (!box || !(await box.isVisible())) return null;
  return box.getAttribute("data-kind");
}

withChromium("the IndexedDB tier in Chromium", () => {
  beforeAll(async () => {
    h = await startHarness();
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  test("filled, reloaded without OfficeRuntime.storage's shards, recalculated: every name from IndexedDB, 0 calls", async () => {
    const { page, context } = await openPane(h);
    const key = `demo-business-idb${++serial}`;
    await saveKey(page, key);
    const cuis = data.sampleCuis(N, 7100);
    const names = cuis.map((c) => data.company(c)!.denumire);
    expect(await fill(page, cuis)).toEqual(names);
    const spent = requestsOf(key);
    expect(spent).toBeGreaterThan(0);
    await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith("firma.c2.")));
    // The shards of OfficeRuntime.storage (here: localStorage) are removed before the next page's bundles run.
    await context.addInitScript(() => {
      for (const k of Object.keys(localStorage)) if (k.startsWith("firma.c2.")) localStorage.removeItem(k);
    });
    // IndexedDB is written at most every 5 s (tiered-answers.ts, idbEveryMs): what waits is written by then.
    const again = await reopen(context, page, cuis, 6000);
    expect(await idbRecords(again)).toBeGreaterThan(1);
    expect(await fill(again, cuis)).toEqual(names);
    expect(requestsOf(key)).toBe(spent);
    expect(await shownProblem(again)).toBeNull();
    await context.close();
  });

  const broken: [string, () => void, string | null][] = [
    [
      "absent",
      () => Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true }),
      null, // a runtime without IndexedDB is not a problem: the shards are the add-in's storage
    ],
    [
      "throwing at open",
      () => {
        IDBFactory.prototype.open = () => {
          throw new DOMException("The operation is insecure.", "SecurityError");
        };
      },
      "read_failed",
    ],
    [
      "failing every write",
      () => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException("disk I/O error", "UnknownError");
        };
      },
      "write_failed",
    ],
    [
      "refusing writes past its quota",
      () => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };
      },
      "write_failed",
    ],
    [
      "with a quota of zero",
      () => {
        StorageManager.prototype.estimate = async () => ({ quota: 0, usage: 0 });
      },
      "write_failed",
    ],
  ];

  test.each(broken)("IndexedDB %s: the cells fill, the pane says so, a reload costs 0 calls from the shards", async (_, breakIt, kind) => {
    const { page, context } = await openPane(h);
    // From the next page on (a fresh start of the add-in), IndexedDB is broken this way.
    await context.addInitScript(breakIt);
    const key = `demo-business-idb${++serial}`;
    await saveKey(page, key);
    await page.waitForFunction((k) => localStorage.getItem("firma.apiKey") === k, key); // the next page starts with it
    const first = await reopen(context, page, []);
    const cuis = data.sampleCuis(20, 7300 + serial * 40);
    const names = cuis.map((c) => data.company(c)!.denumire);
    expect(await fill(first, cuis)).toEqual(names);
    const spent = requestsOf(key);
    expect(spent).toBeGreaterThan(0);
    if (kind) await first.waitForFunction((k) => document.getElementById("cache-problem")?.dataset.kind === k, kind, { timeout: 10_000 });
    else await first.waitForTimeout(1000); // no problem to wait for: a second for one to appear (none must)
    expect(await shownProblem(first)).toBe(kind);
    const again = await reopen(context, first, cuis);
    expect(await fill(again, cuis)).toEqual(names);
    expect(requestsOf(key)).toBe(spent);
    await context.close();
  });
});
