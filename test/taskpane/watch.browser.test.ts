/**
 * The firm's watch lists in the pane, in Chromium, keyboard only: `firma serve` in custody mode (an
 * SQLite file, the firm's key in a key file) serves the production build, the Excel stand-in is
 * injected, and Ana saves her personal token where the key goes. She selects a column of CUIs and
 * asks to watch them: a value that is not a CUI is refused with its row and nothing is sent; the
 * server's quote is asked, Escape adds nothing, the confirmed list is HERS; a check committed on the
 * server (the store's commitCheck, as a check does) shows as the changes since her last visit, as
 * text; "mark as seen", and the pane opened again shows none. She takes a company off her list; Bob's
 * list is never shown to her.
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM); skipped, with a message, without it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Browser, Page } from "playwright-core";
import { serve } from "../../src/server/main";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { costOf } from "../../src/server/firm/watch-cost";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { CHROMIUM, haveChromium, launchChromium } from "./harness";
import { openServed } from "../server/served";
import { idle, setup, text } from "../support/pane";
import { withFirmStore } from "../support/firm-server";

if (!haveChromium) console.log(`watch lists browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;
jest.setTimeout(180_000);

const { ensureBuild } = require("../support/builds") as { ensureBuild(kind: "deploy"): Promise<string> };

const KEY = "demo-business-watch-pane-k3y";
const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

let sb: Sandbox;
let browser: Browser;
let dir: string;
let dist: string;

beforeAll(async () => {
  if (!haveChromium) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-pane-"));
  fs.writeFileSync(path.join(dir, "key"), `${KEY}\n`);
  sb = await startSandbox({ port: 0 });
  dist = path.join(dir, "dist");
  fs.cpSync(await ensureBuild("deploy"), dist, { recursive: true });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const withStore = withFirmStore;

/** `firma serve` in custody mode over `db`, with the firm's key, the built add-in and the sandbox. */
const custodyServer = (db: string) =>
  serve(
    [
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--http",
      "--dist",
      dist,
      "--upstream",
      sb.url,
      "--key-file",
      path.join(dir, "key"),
      "--database",
      db,
    ],
    quiet,
  );

const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");
const press = async (page: Page, key: string) => {
  await page.keyboard.press(key);
  await idle(page);
};

/** Types into the element focused by `selector`, with the keyboard. */
async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.press("Control+A");
  await page.keyboard.type(value);
}

/** Opens the watch section with the keyboard (its summary, Enter) and waits until it has read her lists. */
async function openWatch(page: Page): Promise<void> {
  await page.waitForSelector("#watch-section", { state: "visible", timeout: 15_000 });
  await page.focus("#watch-section summary");
  await press(page, "Enter");
  await page.waitForSelector("#watch-go", { state: "visible" });
  await page.waitForFunction(() => !/…$/.test(document.getElementById("watch-lists-status")?.textContent ?? "…"));
  await idle(page);
}

withChromium("the firm's watch lists in the pane", () => {
  test("keyboard only: CUIs of a selection watched after the server's quote; a committed check's changes since the last visit, as text; mark as seen; reopened: none", async () => {
    const db = path.join(dir, "firm.sqlite");
    const ana = newToken();
    const bob = newToken();
    const [c1, c2, c3, b1] = data.sampleCuis(40, 91_000).filter((c) => data.company(c));
    await withStore(db, async (s) => {
      await s.addUser("ana", 500, hashToken(ana), Date.now());
      await s.addUser("bob", 500, hashToken(bob), Date.now());
      await s.watch.addList({ name: "lista-lui-bob", owner: "bob", schedule: null, notify: [], cuis: [b1] }, Date.now());
    });
    const server = await custodyServer(db);
    let opened: Awaited<ReturnType<typeof openServed>> | null = null;
    try {
      opened = await openServed(browser, server.url);
      const { page, errors } = opened;
      const sent: string[] = [];
      page.on("request", (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith("/firm/watch")) sent.push(`${r.method()} ${u.pathname}`);
        // the token goes in a header, never in an address
        expect(r.url()).not.toContain(ana);
      });

      // her token, typed where the key goes: the watch section appears (it is hidden without a firm's token)
      expect(await page.isVisible("#watch-section")).toBe(false);
      await typeInto(page, "#api-key", ana);
      await press(page, "Enter");
      await openWatch(page);
      expect(await text(page, "#watch-section summary")).toBe("Firme urmărite de serverul firmei");
      expect(await text(page, "#watch-lists-status")).toBe(
        "Nu aveți încă nicio listă: selectați CUI-uri și apăsați Urmărește aceste firme.",
      );
      expect(await text(page, "#watch-changes-status")).toBe("Nicio schimbare de la ultima vizită.");
      expect(await text(page, "#watch-body")).not.toContain("lista-lui-bob");

      // a value that is not a CUI: refused here, with its row; nothing sent
      await setup(page, { sheets: { Foaie1: { A1: "CUI", A2: c1, A3: c2, A4: "", A5: "12345", A6: c3 } }, selection: "Foaie1!A1:A6" });
      sent.length = 0;
      await typeInto(page, "#watch-name", "clienti");
      await press(page, "Enter");
      expect(await text(page, "#watch-status")).toBe(
        "Coloana A are valori care nu sunt CUI-uri valide (1): rândul 5 („12345”). Corectați-le sau lăsați-le în afara selecției; nu s-a trimis nimic.",
      );
      expect(sent).toEqual([]);

      // the CUIs only (a blank row skipped): the server's quote, the safe answer focused; Escape adds nothing
      await setup(page, { sheets: { Foaie1: { A1: "CUI", A2: c1, A3: c2, A4: "", A5: c3 } }, selection: "Foaie1!A1:A5" });
      await page.focus("#watch-go");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#watch-confirm", { state: "visible" });
      expect(await focused(page)).toBe("watch-no");
      const cost = costOf(3, { schedule: null }, Date.now());
      expect(await text(page, "#watch-confirm-text")).toBe(
        `Lista nouă clienti, a dvs.: 3 firme. Cost pe lună: ${cost.monthly.low}–${cost.monthly.high} de credite (${cost.checksPerMonth} zile cu verificare × ${cost.perCheck.low}–${cost.perCheck.high}, plus ${cost.financial} pentru anul financiar). Cu celelalte liste ale dvs., cel puțin ${cost.monthly.low} de credite din bugetul lunar de 500. Urmăriți?`,
      );
      await press(page, "Escape");
      expect(await page.isVisible("#watch-confirm")).toBe(false);
      expect(await text(page, "#watch-status")).toBe("Nu s-a adăugat nimic.");
      expect(await focused(page)).toBe("watch-go");
      expect(sent).toEqual(["POST /firm/watch/quote"]);
      expect(await withStore(db, (s) => s.watch.list("clienti"))).toBeNull();

      // again, and yes (Shift+Tab to it): her list, on the server's schedule
      await page.keyboard.press("Enter");
      await page.waitForSelector("#watch-confirm", { state: "visible" });
      await page.keyboard.press("Shift+Tab");
      expect(await focused(page)).toBe("watch-yes");
      await press(page, "Enter");
      expect(await text(page, "#watch-status")).toBe(
        "Lista clienti urmărește acum 3 firme. Prima verificare doar notează valorile de pornire; schimbările de după apar mai jos.",
      );
      expect(await withStore(db, (s) => s.watch.list("clienti"))).toMatchObject({ owner: "ana", schedule: null, notify: [], companies: 3 });
      expect(await text(page, '#watch-lists li[data-list="clienti"]')).toContain("Încă neverificată.");
      expect(await text(page, '#watch-lists li[data-list="clienti"]')).toContain("3 firme · verificare: programul serverului (0 6 * * *)");

      // a check committed on the server: two changes, one of them text that looks like markup and a formula
      const name2 = data.company(c2)!.denumire;
      await withStore(db, (s) =>
        s.watch.commitCheck(
          "clienti",
          {
            changes: [
              { cui: c1, field: "stare", before: "ACTIVA", after: "RADIATA", name: "<b>Alfa</b>" },
              { cui: c2, field: "platitor_tva", before: true, after: false, name: name2 },
            ],
            updates: [
              { cui: c1, field: "stare", value: "RADIATA" },
              { cui: c2, field: "platitor_tva", value: false },
            ],
            unknown: [],
          },
          Date.now(),
        ),
      );
      await withStore(db, (s) =>
        s.watch.commitCheck(
          "lista-lui-bob",
          { changes: [{ cui: b1, field: "stare", before: "ACTIVA", after: "INACTIVA", name: "Bob's" }], updates: [], unknown: [] },
          Date.now(),
        ),
      );
      await page.focus("#watch-reload");
      await press(page, "Enter");
      expect(await text(page, "#watch-changes-status")).toBe("2 schimbări de la ultima vizită.");
      const rows = await page.$$eval("#watch-changes tbody tr", (trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "").slice(0, 4)),
      );
      expect(rows).toEqual([
        [`<b>Alfa</b>${c1}`, "Stare", "ACTIVA", "RADIATA"],
        [`${name2}${c2}`, "Plătitor de TVA", "da", "nu"],
      ]);
      expect(await page.$$eval("#watch-changes b", (b) => b.length)).toBe(0); // text, never markup
      expect(await text(page, '#watch-lists li[data-list="clienti"]')).toMatch(
        /Ultima verificare: \d{4}-\d{2}-\d{2} \d{2}:\d{2}, 2 schimbări\./,
      );
      expect(await text(page, "#watch-body")).not.toContain("INACTIVA"); // Bob's change is not hers

      // mark as seen: the table goes, the focus to what the pane says now
      await page.focus("#watch-seen");
      await press(page, "Enter");
      expect(await text(page, "#watch-changes-status")).toBe("Nicio schimbare de la ultima vizită.");
      expect(await page.isVisible("#watch-changes-box")).toBe(false);
      expect(await focused(page)).toBe("watch-changes-status");

      // a company off her list: its companies shown, one ticked, asked, taken off
      await page.focus('#watch-lists li[data-list="clienti"] button[data-act="members"]');
      await press(page, "Enter");
      const box = `#watch-lists li[data-list="clienti"] .watch-members`;
      await page.waitForSelector(box);
      await page.focus(`${box} input[value="${c3}"]`);
      await press(page, "Space");
      await page.focus(`${box} button[data-act="take-off"]`);
      await page.keyboard.press("Enter");
      await page.waitForSelector("#watch-remove-confirm", { state: "visible" });
      expect(await focused(page)).toBe("watch-remove-no");
      expect(await text(page, "#watch-remove-text")).toBe("Scoateți 1 firmă din lista clienti? Serverul nu le mai verifică.");
      await page.keyboard.press("Shift+Tab");
      await press(page, "Enter");
      expect(await text(page, "#watch-lists-status")).toBe("Scoase din lista clienti: 1 firmă.");
      expect(await withStore(db, (s) => s.watch.members("clienti"))).toEqual([c1, c2].sort((a, b) => a - b));

      // the pane opened again: nothing new since the change she marked seen
      await page.reload();
      await page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false", null, { timeout: 30_000 });
      await openWatch(page);
      await page.waitForFunction(() => (document.getElementById("watch-changes-status")?.textContent ?? "") !== "");
      expect(await text(page, "#watch-changes-status")).toBe("Nicio schimbare de la ultima vizită.");
      expect(await page.$$eval("#watch-changes tbody tr", (trs) => trs.length)).toBe(0);
      expect(await text(page, '#watch-lists li[data-list="clienti"]')).toContain("2 firme");
      expect(errors).toEqual([]);
    } finally {
      await opened?.context.close();
      await server.close();
    }
  });

  test("past her budget: the server's arithmetic shown, nothing asked or added; the server gone: the pane says it does not answer", async () => {
    const db = path.join(dir, "firm-budget.sqlite");
    const ana = newToken();
    const [c1, c2] = data.sampleCuis(40, 92_000).filter((c) => data.company(c));
    const first = costOf(1, { schedule: null }, Date.now()).monthly.low;
    // room for one list of one company, not for a second one
    await withStore(db, async (s) => {
      await s.addUser("ana", first + 5, hashToken(ana), Date.now());
      await s.watch.addList({ name: "prima", owner: "ana", schedule: null, notify: [], cuis: [c1] }, Date.now());
    });
    const server = await custodyServer(db);
    let opened: Awaited<ReturnType<typeof openServed>> | null = null;
    let closed = false;
    try {
      opened = await openServed(browser, server.url);
      const { page, errors } = opened;
      const sent: string[] = [];
      page.on("request", (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith("/firm/watch")) sent.push(`${r.method()} ${u.pathname}`);
      });
      await typeInto(page, "#api-key", ana);
      await press(page, "Enter");
      await openWatch(page);
      expect(await text(page, '#watch-lists li[data-list="prima"]')).toContain("1 firmă");

      // hidden rows under the selection: refused here (their companies would be watched too), nothing sent
      await setup(page, { sheets: { Foaie1: { A1: c2, A2: c1 } }, selection: "Foaie1!A1:A2", hiddenRows: { Foaie1: [2] } });
      sent.length = 0;
      await typeInto(page, "#watch-name", "a-doua");
      await press(page, "Enter");
      expect(await text(page, "#watch-status")).toBe(
        "Selecția are rânduri ascunse (de un filtru sau de mână): s-ar urmări și firmele de pe ele. Afișați toate rândurile sau selectați doar firmele dorite.",
      );
      expect(sent).toEqual([]);

      // a CUI in an Excel table on a protected sheet: read all the same (nothing is written), the server asked
      await setup(page, {
        sheets: { Foaie1: { A1: c2 } },
        selection: "Foaie1!A1:A1",
        protected: ["Foaie1"],
        tables: { Foaie1: ["A1:B3"] },
      });
      await press(page, "Enter");
      const c = costOf(1, { schedule: null }, Date.now());
      expect(await text(page, "#watch-status")).toBe(
        `lista a-doua ar costa cel puțin ${c.monthly.low} de credite pe lună (${c.checksPerMonth} verificări × ${c.perCheck.low} + ${c.financial} pentru anul financiar); cu celelalte liste ale dvs. (${first}) ajunge la ${first + c.monthly.low}, peste bugetul dvs. lunar de ${first + 5}. Urmăriți mai puține firme sau cereți administratorului un buget mai mare; nu s-a scris nimic.`,
      );
      expect(await page.isVisible("#watch-confirm")).toBe(false);
      expect(sent).toEqual(["POST /firm/watch/quote"]);
      expect(await withStore(db, (s) => s.watch.list("a-doua"))).toBeNull();

      // the firm's server stops: Reload says it does not answer, and the lists shown are cleared
      await server.close();
      closed = true;
      await page.focus("#watch-reload");
      await press(page, "Enter");
      expect(await text(page, "#watch-lists-status")).toBe("Serverul firmei nu răspunde acum; încercați din nou peste puțin timp.");
      expect(await page.$$eval("#watch-lists li", (li) => li.length)).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await opened?.context.close();
      if (!closed) await server.close();
    }
  });
});
