/**
 * Linked companies in the pane, in Chromium, with the Excel stand-in (its workbook.linkedEntityDataDomains:
 * test/support/excel/linked-domains.ts) and the sandbox:
 *  - at start-up, where this Excel has ExcelApi 1.19, the "Firmă" domain is registered with the refresh
 *    mode of Settings (manual by default; "on load" as chosen, which refreshes when it is registered), and
 *    not where 1.19 is missing;
 *  - "Transformă în firme legate", keyboard only: CUIs, a FISA card and matched CUIs become linked
 *    companies after the estimate and its confirmation (Escape writes nothing), for what the same FISA
 *    cells cost (counted at the sandbox); Excel then loads each card through the load service, for 0 credits;
 *  - where 1.19 is missing the pane says so and offers FIRMA.FISA formulas instead (English).
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM); skipped, with a message, without it.
 */
import type { Page } from "playwright-core";
import { universe } from "../../sandbox/universe";
import { haveChromium, CHROMIUM, openPane, startHarness, type Harness, type StandIn } from "./harness";
import { act, cellOf, idle, saveKey, setup, text } from "../support/pane";

if (!haveChromium) console.log(`linked companies browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;

jest.setTimeout(180_000);
jest.retryTimes(1, { logErrorsBeforeRetry: true });

let h: Harness;
let serial = 0;
const keyFor = () => `demo-pro-linked${++serial}-${process.pid}`;
type Win = Window & { __firmaStandIn: StandIn };
const DOMAIN = "firma-company";
/**
 * Excel with linked data types for add-ins (ExcelApi 1.19) and data types in custom functions (the FISA card),
 * FIRMA loaded by its linked edition's manifest (the metadata with the load service).
 */
const DESKTOP = { excelApi: "1.19", customFunctionsRuntime: "1.4", manifest: "manifest-legate.xml" } as const;

const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");
const press = async (page: Page, key: string) => {
  await page.keyboard.press(key);
  await idle(page);
};
const settled = (page: Page) => page.evaluate(() => (window as unknown as Win).__firmaStandIn.idle());
/** The Company domain as Excel holds it (null: not registered), and what Excel recorded of linked entities. */
const linked = (page: Page) =>
  page.evaluate((id) => {
    const l = (window as unknown as Win).__firmaStandIn.linked;
    const d = l.domains.get(id);
    return { domain: d ? { ...d } : null, count: l.domains.size, requests: [...l.requests], violations: [...l.violations] };
  }, DOMAIN);
const waitDomain = (page: Page, mode: string) =>
  page.waitForFunction(([id, m]) => (window as unknown as Win).__firmaStandIn.linked.domains.get(id)?.refreshMode === m, [DOMAIN, mode]);

/** Where linked companies are not to be had: the pane says `why`, offers FISA formulas, registers nothing and spends nothing. */
async function expectFisaOffered(page: Page, key: string, why: RegExp): Promise<void> {
  expect(await text(page, "#linked-status")).toMatch(why);
  expect(await page.isVisible("#linked-fisa")).toBe(true);
  const l = await linked(page);
  expect(l.count).toBe(0);
  expect(l.violations).toEqual([]);
  expect(h.sandbox.usage(key).month).toBe(0);
}

/** Opens Add columns with the keyboard (its summary, Enter) and waits for the flows' chunk. */
async function openColumns(page: Page): Promise<void> {
  await page.focus("#columns-section summary");
  await press(page, "Enter");
  await page.waitForSelector("#linked-convert", { state: "visible" });
}

/** What the same FIRMA.FISA cells cost, counted at the sandbox: typed by hand in a pane of its own, calculated. */
async function fisaCost(cuis: number[]): Promise<number> {
  const { page, context } = await openPane(h, DESKTOP);
  const key = keyFor();
  await saveKey(page, key);
  const cells: Record<string, unknown> = {};
  cuis.forEach((c, i) => (cells[`A${i + 1}`] = `=FIRMA.FISA(${c})`));
  await page.evaluate(
    async (def) => {
      const s = (window as unknown as Win).__firmaStandIn;
      await s.setup(def);
      s.calculateAll();
      await s.idle();
    },
    { sheets: { Foaie1: cells } },
  );
  const spent = h.sandbox.usage(key).month;
  await context.close();
  return spent;
}

withChromium("linked companies in the pane", () => {
  beforeAll(async () => {
    h = await startHarness();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  const companies = universe().companies;
  const [c0, c1, c2, c3, c4] = [companies[40], companies[41], companies[42], companies[43], companies[44]];

  test("start-up in Excel with 1.19: the Firmă domain registered, manual; CUIs converted by keyboard after the estimate, for what FISA cells cost", async () => {
    const { page, pageErrors } = await openPane(h, DESKTOP);
    await waitDomain(page, "Manual");
    const start = await linked(page);
    expect(start.domain).toEqual({
      dataProvider: "FIRMA",
      id: DOMAIN,
      name: "Firmă",
      loadFunctionId: "INCARCA_FIRME",
      supportedRefreshModes: ["Manual"],
      refreshMode: "Manual",
    });
    expect(start.requests).toEqual([]); // a manual domain refreshes nothing when it is registered
    const key = keyFor();
    await saveKey(page, key);
    await setup(page, {
      sheets: { Foaie1: { A1: "CUI", A2: c0.cui, A3: c1.cui, A4: c2.cui, A5: "nu e CUI" } },
      selection: "Foaie1!A1:A5",
    });
    await openColumns(page);

    // Enter on the button: the estimate asked first, the safe answer focused; Escape writes nothing, spends nothing
    await page.focus("#linked-convert");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#linked-confirm", { state: "visible" });
    const confirm = await text(page, "#linked-confirm-text");
    const estimate = Number(/Cost: cel mult (\d+) (de )?credit/.exec(confirm)?.[1]);
    expect(confirm).toBe(
      `3 celule devin firme legate (CUI-ul e înlocuit de firmă). Cost: cel mult ${estimate} credite, cât ar costa aceleași celule FISA.`,
    );
    expect(await focused(page)).toBe("linked-no");
    await press(page, "Escape");
    expect(await page.isHidden("#linked-confirm")).toBe(true);
    expect(await text(page, "#linked-status")).toBe("Nu s-a scris nimic.");
    expect((await cellOf(page, "Foaie1", "A2")).value).toBe(c0.cui);
    expect(h.sandbox.usage(key).month).toBe(0);

    // again; Shift+Tab to "Transformă", Enter
    await page.focus("#linked-convert");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#linked-confirm", { state: "visible" });
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toBe("linked-yes");
    await press(page, "Enter");
    await settled(page);
    const spent = h.sandbox.usage(key).month;
    expect(spent).toBeLessThanOrEqual(estimate);
    expect(spent).toBe(await fisaCost([c0.cui, c1.cui, c2.cui]));
    expect(await page.getAttribute("#linked-status", "data-spent")).toBe(String(spent));
    expect(await text(page, "#linked-status")).toBe(`3 celule transformate în firme legate. Cost: ${spent} credite.`);

    // the cells hold linked companies whose card shows the company; the header and the bad row are as they were
    for (const [address, c] of [
      ["A2", c0],
      ["A3", c1],
      ["A4", c2],
    ] as const) {
      const cell = await cellOf(page, "Foaie1", address);
      expect(cell.rich).toMatchObject({
        type: "LinkedEntity",
        text: c.denumire,
        id: { entityId: String(c.cui), domainId: DOMAIN, serviceId: 268436224, culture: "ro-RO" },
      });
      expect((cell.rich!.properties as Record<string, { basicValue: unknown }>).Denumire.basicValue).toBe(c.denumire);
    }
    expect((await cellOf(page, "Foaie1", "A1")).value).toBe("CUI");
    expect((await cellOf(page, "Foaie1", "A5")).value).toBe("nu e CUI");
    // Excel asked the load service once, for the three, and it answered from the cache: no credit more
    const after = await linked(page);
    expect(after.requests.map((r) => JSON.parse(r))).toEqual([
      { domainId: DOMAIN, entities: [c0, c1, c2].map((c) => ({ entityId: String(c.cui), culture: "ro-RO" })) },
    ]);
    expect(after.violations).toEqual([]);
    expect(h.sandbox.usage(key).month).toBe(spent);

    // The linked companies read as their CUIs: selected again, the same three are found, and cost nothing
    await page.focus("#linked-convert");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#linked-confirm", { state: "visible" });
    expect(await text(page, "#linked-confirm-text")).toMatch(/^3 celule devin firme legate/);
    await page.keyboard.press("Shift+Tab");
    await press(page, "Enter");
    await settled(page);
    expect(await text(page, "#linked-status")).toBe("3 celule transformate în firme legate. Cost: 0 credite.");
    expect(h.sandbox.usage(key).month).toBe(spent);
    expect((await cellOf(page, "Foaie1", "A3")).rich).toMatchObject({ type: "LinkedEntity", text: c1.denumire });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test("a FISA card and matched CUIs beside their names become linked companies; the names stay; a card already fetched costs nothing", async () => {
    const { page, pageErrors } = await openPane(h, DESKTOP);
    await waitDomain(page, "Manual");
    const key = keyFor();
    await saveKey(page, key);
    await page.evaluate(
      async (def) => {
        const s = (window as unknown as Win).__firmaStandIn;
        await s.setup(def);
        s.calculateAll();
        await s.idle();
      },
      {
        sheets: { Foaie1: { A1: "Denumire", B1: "CUI", A2: c3.denumire, B2: c3.cui, A3: c4.denumire, B3: `=FIRMA.FISA(${c4.cui})` } },
        selection: "Foaie1!A1:B3",
      },
    );
    expect((await cellOf(page, "Foaie1", "B3")).rich).toMatchObject({ type: "Entity" }); // the FISA card
    const forCard = h.sandbox.usage(key).month;
    expect(forCard).toBe(await fisaCost([c4.cui]));
    await openColumns(page);
    await page.focus("#linked-convert");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#linked-confirm", { state: "visible" });
    expect(await text(page, "#linked-confirm-text")).toMatch(/^2 celule devin firme legate/);
    await page.keyboard.press("Shift+Tab");
    await press(page, "Enter");
    await settled(page);
    // only the matched CUI not yet fetched is paid for, what its FISA cell costs
    expect(h.sandbox.usage(key).month - forCard).toBe(await fisaCost([c3.cui]));
    for (const [address, c] of [
      ["B2", c3],
      ["B3", c4],
    ] as const)
      expect((await cellOf(page, "Foaie1", address)).rich).toMatchObject({ type: "LinkedEntity", text: c.denumire });
    expect((await cellOf(page, "Foaie1", "B3")).formula).toBeNull(); // the card's formula became the company
    expect((await cellOf(page, "Foaie1", "A2")).value).toBe(c3.denumire);
    expect((await cellOf(page, "Foaie1", "A3")).value).toBe(c4.denumire);
    expect((await linked(page)).violations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test("where ExcelApi 1.19 is missing: no domain at start-up; the pane says so (English) and offers FIRMA.FISA formulas instead", async () => {
    const { page, pageErrors } = await openPane(h, { displayLanguage: "en-US", customFunctionsRuntime: "1.4" }); // ExcelApi 1.17
    const key = keyFor();
    await saveKey(page, key);
    expect((await linked(page)).count).toBe(0);
    await setup(page, { sheets: { Sheet1: { A1: "CUI", A2: c0.cui, A3: c1.cui, B3: "my note" } }, selection: "Sheet1!A1:A3" });
    await openColumns(page);
    expect(await page.isHidden("#linked-fisa")).toBe(true);
    await page.focus("#linked-convert");
    await press(page, "Enter");
    expect(await text(page, "#linked-status")).toBe(
      "This Excel has no linked data types for add-ins (they need Excel desktop with ExcelApi 1.19; Excel on the web has none). Use FIRMA.FISA formulas instead.",
    );
    expect(await page.isVisible("#linked-fisa")).toBe(true);
    expect((await cellOf(page, "Sheet1", "A2")).value).toBe(c0.cui); // nothing converted
    expect(h.sandbox.usage(key).month).toBe(0);
    // Tab to the offer, Enter: the card as FISA formulas beside the CUIs; B3 is not empty, so it asks first
    await press(page, "Tab");
    expect(await focused(page)).toBe("linked-fisa");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#columns-confirm", { state: "visible" });
    expect(await focused(page)).toBe("columns-no");
    await press(page, "Escape");
    expect((await cellOf(page, "Sheet1", "B3")).value).toBe("my note");
    expect(await text(page, "#columns-status")).toBe("Nothing was written.");
    // B3 emptied by the user: the offer writes the formulas
    await setup(page, { sheets: { Sheet1: { A1: "CUI", A2: c0.cui, A3: c1.cui } }, selection: "Sheet1!A1:A3" });
    await act(page, "#linked-convert");
    await page.focus("#linked-fisa");
    await press(page, "Enter");
    await settled(page);
    expect((await cellOf(page, "Sheet1", "B2")).formula).toMatch(/^=FIRMA\.FISA\(\$?A\$?2/);
    expect((await cellOf(page, "Sheet1", "B3")).formula).toMatch(/^=FIRMA\.FISA\(\$?A\$?3/);
    expect((await cellOf(page, "Sheet1", "B2")).rich).toMatchObject({ type: "Entity", text: c0.denumire });
    expect((await linked(page)).count).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test("the default manifest in Excel with 1.19: no domain (its metadata has no load service); the pane names the linked edition, spends nothing", async () => {
    const { page, pageErrors } = await openPane(h, { ...DESKTOP, manifest: "manifest.xml" });
    const key = keyFor();
    await saveKey(page, key);
    await setup(page, { sheets: { Foaie1: { A1: c0.cui } }, selection: "Foaie1!A1" });
    await openColumns(page);
    await act(page, "#linked-convert");
    await expectFisaOffered(page, key, /^Firmele legate vin cu ediția FIRMA pentru tipul de date Firmă \(manifest-legate\.xml\)/);
    expect((await cellOf(page, "Foaie1", "A1")).value).toBe(c0.cui);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test("Excel on the web with the linked edition (it claims ExcelApi 1.19, has no linked data domains): no domain tried, the pane says so, spends nothing", async () => {
    const { page, pageErrors } = await openPane(h, { ...DESKTOP, platform: "OfficeOnline", displayLanguage: "en-US" });
    const key = keyFor();
    await saveKey(page, key);
    await setup(page, { sheets: { Sheet1: { A1: c0.cui } }, selection: "Sheet1!A1" });
    await openColumns(page);
    await act(page, "#linked-convert");
    await expectFisaOffered(page, key, /Excel on the web has none\)\. Use FIRMA\.FISA formulas instead\.$/);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test("Excel refuses the domain (its name is another provider's): the reason is shown, nothing is fetched or written; Settings says so too", async () => {
    const { page, pageErrors } = await openPane(h, DESKTOP);
    await waitDomain(page, "Manual");
    const key = keyFor();
    await saveKey(page, key);
    // Another add-in's domain takes the name before FIRMA registers again.
    await page.evaluate((id) => {
      const l = (window as unknown as Win).__firmaStandIn.linked;
      l.delete(id);
      l.register({ dataProvider: "Contoso", id: "contoso-firme", name: "Firmă", loadFunctionId: "CONTOSO_LOAD" });
    }, DOMAIN);
    await setup(page, { sheets: { Foaie1: { A1: c0.cui, A2: c1.cui } }, selection: "Foaie1!A1:A2" });
    await openColumns(page);
    await page.focus("#linked-convert");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#linked-confirm", { state: "visible" });
    await page.keyboard.press("Shift+Tab");
    await press(page, "Enter");
    await settled(page);
    expect(await text(page, "#linked-status")).toMatch(
      /^Excel nu a înregistrat tipul de date Firmă \(InvalidArgument: .*Firmă is taken\), deci nu s-a cheltuit și nu s-a scris nimic\./,
    );
    expect(await page.isVisible("#linked-fisa")).toBe(true);
    expect((await cellOf(page, "Foaie1", "A1")).value).toBe(c0.cui);
    expect((await cellOf(page, "Foaie1", "A2")).value).toBe(c1.cui);
    expect(h.sandbox.usage(key).month).toBe(0);
    // Settings: a change of the refresh choice registers again; the refusal is said, not "saved" alone
    await page.focus("#settings-section summary");
    await press(page, "Enter");
    await page.focus("#linked-refresh");
    await press(page, "Space");
    await page.focus("#save-settings");
    await press(page, "Enter");
    await page.waitForFunction(() => /tipul de date Firmă/.test(document.getElementById("settings-status")?.textContent ?? ""));
    expect(await text(page, "#settings-status")).toMatch(
      /^Setările au fost salvate, dar Excel a refuzat tipul de date Firmă \(InvalidArgument/,
    );
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  test('Settings: "on load" registers the domain again with OnLoad, which refreshes the linked companies; kept at the next start-up; back to manual', async () => {
    const { page, pageErrors } = await openPane(h, DESKTOP);
    await waitDomain(page, "Manual");
    const key = keyFor();
    await saveKey(page, key);
    await setup(page, { sheets: { Foaie1: { A1: c0.cui, A2: c1.cui } }, selection: "Foaie1!A1:A2" });
    await openColumns(page);
    await page.focus("#linked-convert");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#linked-confirm", { state: "visible" });
    await page.keyboard.press("Shift+Tab");
    await press(page, "Enter");
    await settled(page);
    const spent = h.sandbox.usage(key).month;
    expect((await linked(page)).requests).toHaveLength(1);

    // Settings, keyboard only: tick "refresh when FIRMA starts", save
    await page.focus("#settings-section summary");
    await press(page, "Enter");
    await page.focus("#linked-refresh");
    await press(page, "Space");
    await page.focus("#save-settings");
    await press(page, "Enter");
    await waitDomain(page, "OnLoad");
    await settled(page);
    const onLoad = await linked(page);
    expect(onLoad.domain).toMatchObject({ supportedRefreshModes: ["OnLoad", "Manual"], refreshMode: "OnLoad" });
    expect(onLoad.requests).toHaveLength(2); // registered with OnLoad: Excel refreshed the two companies
    expect(JSON.parse(onLoad.requests[1]).entities).toHaveLength(2);
    expect(h.sandbox.usage(key).month).toBe(spent); // fresh answers: from the cache
    expect(onLoad.violations).toEqual([]);

    // the next start of FIRMA registers it with OnLoad
    await page.reload();
    await page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false");
    await waitDomain(page, "OnLoad");
    expect((await linked(page)).domain).toMatchObject({ supportedRefreshModes: ["OnLoad", "Manual"] });

    // back to manual: registered again with Manual alone
    await page.focus("#settings-section summary");
    await press(page, "Enter");
    await page.focus("#linked-refresh");
    await press(page, "Space");
    await page.focus("#save-settings");
    await press(page, "Enter");
    await waitDomain(page, "Manual");
    expect((await linked(page)).domain).toMatchObject({ supportedRefreshModes: ["Manual"], refreshMode: "Manual" });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
