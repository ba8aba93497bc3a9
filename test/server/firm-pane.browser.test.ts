/**
 * The pane with a personal token of a firm's server, in Chromium: `firma serve` in custody mode (the
 * firm's key in a key file, an SQLite database in a temporary folder) serves the production build that
 * calls its own origin, and the pane is opened as Excel would open it (the stand-in injected). Ana
 * pastes her token where the key goes: the pane says it is connected to the firm's server as ana and
 * shows HER budget and spend from /firm/me instead of the plan's meters; cells she fills raise her
 * spend; once revoked, the next test says the server refuses the token. The firm's key is in no
 * storage of the page, no response it got and no text of its page. With an ordinary `firma serve`
 * (no /firm/me), the pane stays as it is today.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Browser, Page } from "playwright-core";
import { serve } from "../../src/server/main";
import { openFirmStore } from "../../src/server/firm/open-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { CHROMIUM, haveChromium, launchChromium, type StandIn } from "../taskpane/harness";
import { openServed } from "./served";
import { fillNames as fill, idle, saveKey, text } from "../support/pane";
import { withFirmStore } from "../support/firm-server";

if (!haveChromium) console.log(`firm pane browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;
jest.setTimeout(120_000);

const { ensureBuild } = require("../support/builds") as { ensureBuild(kind: "deploy"): Promise<string> };
type Win = Window & { __firmaStandIn: StandIn };

const KEY = "demo-business-firm-pane-k3y-s3cr3t";
const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

let sb: Sandbox;
let browser: Browser;
let dir: string;
let dist: string;

beforeAll(async () => {
  if (!haveChromium) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-firm-pane-"));
  fs.writeFileSync(path.join(dir, "key"), `${KEY}\n`);
  sb = await startSandbox({ port: 0 });
  // A copy of the shared build: another run may replace the cache's copy when the sources change.
  dist = path.join(dir, "dist");
  for (let attempt = 0; ; attempt++) {
    try {
      fs.cpSync(await ensureBuild("deploy"), dist, { recursive: true });
      break;
    } catch (e) {
      fs.rmSync(dist, { recursive: true, force: true });
      if (attempt === 2) throw e;
    }
  }
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new SQLite database with `people` (name → budget); their tokens. */
async function firmWith(people: Record<string, number>): Promise<{ db: string; tokens: Record<string, string> }> {
  const db = path.join(dir, `firm-${Math.random().toString(36).slice(2)}.sqlite`);
  const store = await openFirmStore(db);
  const tokens: Record<string, string> = {};
  try {
    for (const [name, budget] of Object.entries(people)) {
      tokens[name] = newToken();
      await store.addUser(name, budget, hashToken(tokens[name]), Date.now());
    }
  } finally {
    await store.close();
  }
  return { db, tokens };
}

const withStore = withFirmStore;

/** `firma serve` with `argv` and the pane opened from it; both closed after `work`, whatever happens. */
async function withPane(argv: string[], work: (p: Awaited<ReturnType<typeof openServed>>) => Promise<void>): Promise<void> {
  const server = await serve(["--host", "127.0.0.1", "--port", "0", "--http", "--dist", dist, "--upstream", sb.url, ...argv], quiet);
  let opened: Awaited<ReturnType<typeof openServed>> | null = null;
  try {
    opened = await openServed(browser, server.url);
    // the page again, with its fetch recorded from the first script on
    await opened.page.addInitScript(RECORD_FETCH);
    await opened.page.reload();
    await opened.page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false", null, {
      timeout: 30_000,
    });
    await work(opened);
  } finally {
    await opened?.context.close();
    await server.close();
  }
}
const custody = (db: string) => ["--key-file", path.join(dir, "key"), "--database", db];

const shown = (page: Page, sel: string) => page.isVisible(sel);

/**
 * Every answer the page's scripts get (the pane's and the functions' fetch: /v4 and /firm/me), its
 * status, headers and body, recorded in the page as it arrives.
 */
const RECORD_FETCH = `(() => {
  const seen = (window.__firmaSeen = []);
  const original = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const r = await original(...args);
    const copy = r.clone();
    seen.push(copy.text().then((body) => r.url + " " + r.status + " " + JSON.stringify([...r.headers]) + " " + body, () => r.url));
    return r;
  };
})();`;

function responses(page: Page): Promise<string[]> {
  return page.evaluate(() => Promise.all((window as unknown as { __firmaSeen: Promise<string>[] }).__firmaSeen));
}

/** Everything the page keeps or shows: localStorage, OfficeRuntime.storage if there is one, the DOM's text and markup. */
function pageContents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i)!;
      parts.push(k, localStorage.getItem(k) ?? "");
    }
    const rt = (
      window as unknown as { OfficeRuntime?: { storage?: { getKeys(): Promise<string[]>; getItem(k: string): Promise<string> } } }
    ).OfficeRuntime;
    // office.js outside Office may offer OfficeRuntime.storage without ever answering: a second at most
    const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), 1000))]);
    const keys = rt?.storage?.getKeys ? await within(rt.storage.getKeys()) : null;
    for (const k of keys ?? []) parts.push(k, (await within(rt!.storage!.getItem(k))) ?? "");
    parts.push(document.documentElement.outerHTML, document.body.innerText);
    return parts.join("\n");
  });
}

withChromium("the pane with a personal token of a firm's server", () => {
  test("connected as ana: her budget and spend from the server, raised by the cells she fills; revoked: refused at the next test; the firm's key nowhere in the page", async () => {
    const { db, tokens } = await firmWith({ ana: 40 });
    await withPane(custody(db), async ({ page, errors }) => {
      // the field says it takes a key or a firm's token
      expect(await text(page, 'label[for="api-key"]')).toBe("Cheia primită de la serviciu sau tokenul personal de la firmă");
      expect(await text(page, "#firm-key-hint")).toMatch(/tokenul personal \(firma_…\)/);
      expect(await shown(page, "#firm-usage")).toBe(false);

      await saveKey(page, tokens.ana);
      expect(await text(page, "#key-state")).toBe("Conectat la serverul firmei ca ana.");
      expect(await text(page, "#key-status")).toMatch(/^Cheia a fost salvată\. Conectat la serverul firmei ca ana\./);
      expect(await text(page, 'label[for="api-key"]')).toBe("Tokenul personal primit de la firmă");
      // a test of her token asks the firm's server: no credit, and the button says so
      expect(await text(page, "#test-key")).toBe("Testează (fără credit)");
      // her figures, in place of the plan's meters
      expect(await shown(page, "#firm-usage")).toBe(true);
      for (const sel of ["#meter-today", "#meter-month", "#plan", ".chart"]) expect(await shown(page, sel)).toBe(false);
      expect(await text(page, "#firm-usage-who")).toMatch(/^Cifrele dvs\. pe serverul firmei: ana, luna \d{4}-\d{2}\.$/);
      expect(await text(page, "#firm-budget")).toBe("40");
      expect(await text(page, "#firm-spent")).toBe("0");
      expect(await text(page, "#firm-meter-text")).toBe("0 din 40 de credite");
      expect(await text(page, "#usage-left")).toBe("40");

      // she fills cells: the firm's server fetches them for her, and her spend goes up
      const cuis = data
        .sampleCuis(40, 81_000)
        .filter((c) => data.company(c))
        .slice(0, 3);
      const cells = await fill(page, cuis);
      cuis.forEach((c, i) => expect(cells.find((x) => x.address === `B${i + 1}`)?.value).toBe(data.company(c)!.denumire));
      await page.waitForFunction(() => Number(document.getElementById("firm-spent")!.dataset.value) > 0, null, { timeout: 15_000 });
      const month = (await text(page, "#firm-usage-who")).match(/(\d{4}-\d{2})/)![1];
      const charged = await withStore(db, (s) => s.usageOf("ana", month));
      expect(charged!.spent).toBeGreaterThan(0);
      await page.waitForFunction((n) => document.getElementById("firm-spent")!.dataset.value === String(n), charged!.spent);
      expect(await text(page, "#firm-remaining")).toBe(String(40 - charged!.spent));
      expect(await text(page, "#usage-left")).toBe(String(40 - charged!.spent));
      // every upstream credit the firm paid is hers
      expect(sb.usage(KEY).month).toBe(charged!.spent);

      // her token is revoked: the next test says the firm's server refuses it, and the pane shows it
      expect(await withStore(db, (s) => s.revokeUser("ana", Date.now()))).toBe(true);
      await page.click("#test-key");
      await idle(page);
      expect(await text(page, "#key-status")).toBe(
        "Serverul firmei refuză acest token: a fost revocat sau nu este cunoscut. Cereți administratorului un token nou.",
      );
      expect(await text(page, "#key-state")).toMatch(/^Serverul firmei refuză tokenul salvat: a fost revocat/);
      expect(await page.getAttribute("#key-state", "data-firm")).toBe("refused");
      expect(await text(page, "#firm-usage-status")).toMatch(/^Serverul firmei refuză tokenul salvat/);
      expect(await shown(page, "#firm-facts")).toBe(false);
      const spentBefore = sb.usage(KEY).month;

      // a refresh of new cells is refused at no upstream credit, and the pane keeps saying why
      const more = data
        .sampleCuis(40, 82_000)
        .filter((c) => data.company(c))
        .slice(0, 2);
      await fill(page, more, 10);
      expect(sb.usage(KEY).month).toBe(spentBefore);
      expect(await page.getAttribute("#key-state", "data-firm")).toBe("refused");

      // the firm's key: in no storage of the page, no response it got, no text of its page
      const got = await responses(page);
      expect(got.filter((r) => r.includes("/firm/me 200 ")).length).toBeGreaterThan(0);
      expect(got.filter((r) => r.includes("/firm/me 403 ")).length).toBeGreaterThan(0);
      expect(got.filter((r) => r.includes("/v4/")).length).toBeGreaterThan(0);
      for (const r of got) expect({ r: r.slice(0, 80), leaks: r.includes(KEY) }).toEqual({ r: r.slice(0, 80), leaks: false });
      expect(await pageContents(page)).not.toContain(KEY);
      expect(await pageContents(page)).not.toContain("s3cr3t");
      expect(errors).toEqual([]);
    });
  });

  test("her budget spent: the pane's stop and her cells say it is her budget on the firm's server, not the plan's credits, and nothing more is asked", async () => {
    const { db, tokens } = await firmWith({ ana: 1 });
    await withPane(custody(db), async ({ page, errors }) => {
      await saveKey(page, tokens.ana);
      const cuis = data
        .sampleCuis(40, 83_000)
        .filter((c) => data.company(c))
        .slice(0, 4);
      const before = sb.usage(KEY).month; // the firm's key: earlier tests of this file spent some
      await fill(page, cuis.slice(0, 2)); // one call: her one credit
      expect(sb.usage(KEY).month).toBe(before + 1);
      await page.waitForSelector("#quota-stop", { state: "visible" });
      expect(await text(page, "#quota-stop-text")).toMatch(
        /^Bugetul dvs\. lunar pe serverul firmei s-a epuizat; FIRMA nu mai trimite cereri până la .* \(ora României\)\. Cereți administratorului mai mult\./,
      );
      const until = new Date(Number(await page.getAttribute("#quota-stop", "data-until")));
      expect(until.getUTCDate() === 1 || until.getUTCDate() >= 28).toBe(true); // the month's end, Bucharest time
      const more = await fill(page, cuis.slice(2), 3);
      expect(more).toEqual([
        { address: "B3", value: "#N/A", message: expect.stringMatching(/^Bugetul dvs\. lunar pe serverul firmei s-a epuizat/) },
        { address: "B4", value: "#N/A", message: expect.stringMatching(/^Bugetul dvs\. lunar pe serverul firmei s-a epuizat/) },
      ]);
      expect(sb.usage(KEY).month).toBe(before + 1);
      expect(errors).toEqual([]);
    });
  });

  test("a refresh's estimate is weighed against what is left of HER budget, not the plan behind the server", async () => {
    const { db, tokens } = await firmWith({ ana: 3 });
    await withPane(custody(db), async ({ page, errors }) => {
      await saveKey(page, tokens.ana);
      const cuis = data.sampleCuis(600, 84_000);
      await fill(page, cuis.slice(0, 5)); // one call: 2 of her 3 credits left
      await page.waitForFunction(() => document.getElementById("firm-remaining")?.textContent?.trim() === "2", null, { timeout: 15_000 });
      // 450 companies more: 5 calls, more than her 2
      await page.evaluate(
        async (def) => {
          await (window as unknown as Win).__firmaStandIn.setup(def);
        },
        {
          sheets: {
            Foaie1: Object.fromEntries(
              cuis.slice(5, 455).flatMap((c, i) => [
                [`A${i + 1}`, c],
                [`B${i + 1}`, `=FIRMA.JUDET(A${i + 1})`],
              ]),
            ),
          },
        },
      );
      await page.click("#estimate");
      await page.waitForFunction(() => document.getElementById("est-left")?.textContent?.trim() !== "", null, { timeout: 15_000 });
      expect(await text(page, "#est-left")).toBe("2");
      expect(await page.getAttribute("#est-credits", "data-value").then(Number)).toBeGreaterThan(2);
      expect(await page.evaluate(() => document.getElementById("est-credits")!.parentElement!.classList.contains("over"))).toBe(true);
      expect(errors).toEqual([]);
    });
  });

  test("an unknown token: the pane says on saving that the firm's server refuses it, and recalculates nothing", async () => {
    const { db } = await firmWith({ ana: 5 });
    await withPane(custody(db), async ({ page }) => {
      const before = sb.usage(KEY).total;
      await saveKey(page, newToken());
      expect(await text(page, "#key-status")).toBe(
        "Cheia a fost salvată. Serverul firmei refuză tokenul salvat: a fost revocat sau nu este cunoscut. Cereți administratorului un token nou.",
      );
      expect(await page.getAttribute("#key-state", "data-firm")).toBe("refused");
      expect(await shown(page, "#meter-month")).toBe(false);
      // removing it gives the pane back as it is without a key
      await page.click("#remove-key");
      await idle(page);
      expect(await text(page, "#key-state")).toMatch(/^Nicio cheie/);
      expect(await text(page, "#test-key")).toBe("Testează (1 credit)");
      expect(await page.getAttribute("#key-state", "data-firm")).toBeNull();
      expect(await shown(page, "#firm-usage")).toBe(false);
      expect(await shown(page, "#meter-month")).toBe(true);
      expect(sb.usage(KEY).total).toBe(before);
    });
  });

  test("an ordinary firma serve (no /firm/me): a key — even one that starts like a token — leaves the pane as it is today", async () => {
    await withPane([], async ({ page }) => {
      // What went where, with which key: a question about the token-like key may still be on its way
      // when the next key is saved (CI saw one land after it), so the key of each /firm/me is checked.
      const asked: string[] = [];
      const firmMeKeys: string[] = [];
      page.on("request", (r) => {
        const path = new URL(r.url()).pathname;
        asked.push(path);
        if (path === "/firm/me") firmMeKeys.push(r.headers()["x-api-key"] ?? "");
      });
      await saveKey(page, "firma_not-a-firm-server");
      expect(await text(page, "#key-state")).toBe("O cheie API este salvată.");
      expect(await text(page, "#key-status")).toMatch(/^Cheia a fost salvată\./);
      expect(await shown(page, "#firm-usage")).toBe(false);
      expect(await shown(page, "#meter-month")).toBe(true);
      expect(asked).toContain("/firm/me");

      asked.length = 0;
      await saveKey(page, "demo-pro-firm-pane-ordinary");
      expect(await text(page, "#key-state")).toBe("O cheie API este salvată.");
      expect(await text(page, 'label[for="api-key"]')).toBe("Cheia primită de la serviciu");
      const cuis = data
        .sampleCuis(20, 83_000)
        .filter((c) => data.company(c))
        .slice(0, 2);
      const cells = await fill(page, cuis);
      cuis.forEach((c, i) => expect(cells.find((x) => x.address === `B${i + 1}`)?.value).toBe(data.company(c)!.denumire));
      await page.waitForFunction(() => Number(document.getElementById("meter-month-bar")!.dataset.used) > 0);
      expect(await shown(page, "#meter-month")).toBe(true);
      // an ordinary key is never sent to /firm/me
      expect(firmMeKeys).not.toContain("demo-pro-firm-pane-ordinary");
      expect(new Set(firmMeKeys)).toEqual(new Set(["firma_not-a-firm-server"]));
    });
  });
});
