/**
 * Driving the task pane in Chromium (Playwright's Page), for the browser tests: its buttons, its key,
 * what it shows, and the Excel stand-in injected into its page (window.__firmaStandIn).
 */
import type { Page } from "playwright-core";
import type { StandIn } from "../taskpane/harness";

type Win = Window & { __firmaStandIn: StandIn };

/** Resolves once the pane's handler has finished (#pane's data-busy is "false"). */
export const idle = (page: Page) => page.waitForFunction(() => document.getElementById("pane")!.dataset.busy === "false");

/** Clicks and waits until the pane's handler has finished. */
export async function act(page: Page, selector: string): Promise<void> {
  await page.click(selector);
  await idle(page);
}

/**
 * Types `key` into the pane's key field and saves it; resolves once the pane has finished and, where
 * the Excel stand-in is in the page, the cells the save recalculates have settled.
 */
export async function saveKey(page: Page, key: string): Promise<void> {
  await page.fill("#api-key", key);
  await act(page, "#save-key");
  await page.evaluate(() => (window as unknown as Win).__firmaStandIn?.idle());
}

/** The text of `selector`, trimmed ("" for none). */
export const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? "").trim();

/** An attribute of `selector` as a number (by default data-value). */
export const numberIn = async (page: Page, selector: string, attr = "data-value") => Number(await page.getAttribute(selector, attr));

/** The stand-in's workbook made anew from `def`. */
export const setup = (page: Page, def: Parameters<StandIn["setup"]>[0]) =>
  page.evaluate((d) => (window as unknown as Win).__firmaStandIn.setup(d), def);

/** A full recalculation in the stand-in, resolved once every cell has settled. */
export const calculateAll = (page: Page) =>
  page.evaluate(async () => {
    const s = (window as unknown as Win).__firmaStandIn;
    s.calculateAll();
    await s.idle();
  });

/** One cell of the stand-in's workbook. */
export const cellOf = (page: Page, sheet: string, address: string) =>
  page.evaluate(([s, a]) => (window as unknown as Win).__firmaStandIn.cell(s, a), [sheet, address]);

/** Every cell of the stand-in's workbook. */
export const dump = (page: Page) => page.evaluate(() => (window as unknown as Win).__firmaStandIn.dump());

/** A custom function called as Excel would call it, by its id. */
export const callFn = (page: Page, id: string, args: unknown[]) =>
  page.evaluate(([i, a]) => (window as unknown as Win).__firmaStandIn.call(i as string, a as unknown[]), [id, args]);

/** Companies in A, =FIRMA.DENUMIRE in B from `row`, calculated; what B shows. */
export async function fillNames(page: Page, cuis: number[], row = 1) {
  const cells: Record<string, unknown> = {};
  cuis.forEach((c, i) => {
    cells[`A${row + i}`] = c;
    cells[`B${row + i}`] = `=FIRMA.DENUMIRE(A${row + i})`;
  });
  return page.evaluate(
    async (def) => {
      const s = (window as unknown as Win).__firmaStandIn;
      await s.setup(def);
      s.calculateAll();
      await s.idle();
      return s
        .dump()
        .filter((c) => c.address.startsWith("B"))
        .map((c) => ({ address: c.address, value: c.value, message: c.message }));
    },
    { sheets: { Foaie1: cells } },
  );
}
