/**
 * Screenshots of the task pane for the README, from the real page: a development build served on
 * 127.0.0.1, the sandbox as the service, headless Chromium, and the Excel stand-in of the pane's
 * browser tests (test/pane/). For each language it saves a key, gives the meter a month of use by
 * calling the functions on earlier days of this month (the page's Date.now is shifted to each day;
 * the calls are real calls to the sandbox), tests the key, fills a workbook, and shows a refresh
 * estimate.
 *
 *   npx tsx scripts/screenshots.ts          → docs/screenshots/pane-ro.png, pane-en.png, refresh-ok.png, refresh-failed.png
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM).
 */
import * as fs from "fs";
import * as path from "path";
import type { Page } from "playwright-core";
import { bucharestDay } from "../src/engine/meter";
import * as data from "../sandbox/dataset";
import { haveChromium, CHROMIUM, openPane, startHarness, type Harness, type StandIn } from "../test/pane/harness";

const OUT = path.resolve(__dirname, "..", "docs", "screenshots");
type Win = Window & { __firmaStandIn: StandIn };

/** Noon, Bucharest time, on day `d` of the current month (as a UTC timestamp). */
function noonOfDay(d: number): number {
  const [y, m] = bucharestDay(Date.now()).split("-").map(Number);
  return Date.UTC(y, m - 1, d, 10, 0, 0);
}

/** Credits for a past day: a working-week rhythm, deterministic. */
function creditsFor(day: number): number {
  const weekday = new Date(noonOfDay(day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return day % 3;
  return 4 + ((day * 7) % 11);
}

async function history(page: Page, offset: number): Promise<void> {
  const today = Number(bucharestDay(Date.now()).slice(8, 10));
  let next = offset;
  for (let d = 1; d < today; d++) {
    await page.evaluate(
      (shift) => ((window as unknown as { __firmaClockShift: number }).__firmaClockShift = shift),
      noonOfDay(d) - Date.now(),
    );
    for (let i = 0; i < creditsFor(d); i++) {
      const cui = data.sampleCuis(1, next++)[0];
      await page.evaluate((c) => (window as unknown as Win).__firmaStandIn.call("DENUMIRE", [c]), cui);
    }
  }
  await page.evaluate(() => ((window as unknown as { __firmaClockShift: number }).__firmaClockShift = 0));
}

function workbook(): Parameters<StandIn["setup"]>[0] {
  const cuis = data.sampleCuis(40, 5000);
  const firme: Record<string, unknown> = { A1: "CUI", B1: "Denumire", C1: "Județ", D1: "Cifra de afaceri" };
  cuis.forEach((c, i) => {
    const r = i + 2;
    firme[`A${r}`] = c;
    firme[`B${r}`] = `=FIRMA.DENUMIRE(A${r})`;
    firme[`C${r}`] = `=FIRMA.JUDET(A${r})`;
    firme[`D${r}`] = `=FIRMA.CA(A${r})`;
    firme[`E${r}`] = `=FIRMA.PROFIT(A${r}, ${data.LATEST_YEAR - 1})`;
  });
  return { sheets: { Firme: firme, Topuri: { A1: "=FIRMA.JUDETE()" } }, selection: "Firme!B2:D41" };
}

async function shoot(h: Harness, lang: "ro" | "en"): Promise<string> {
  const key = `demo-business-screens-${lang}`;
  h.sandbox.reset(key);
  const { page, context, pageErrors } = await openPane(h, {
    displayLanguage: lang === "ro" ? "ro-RO" : "en-US",
    viewport: { width: 360, height: 900 },
    deviceScaleFactor: 2,
    shiftableClock: true,
  });
  const idle = () => page.waitForFunction(() => document.getElementById("pane")!.dataset.busy === "false");
  await page.fill("#api-key", key);
  await page.click("#save-key");
  await idle();
  await history(page, lang === "ro" ? 20_000 : 40_000);

  await page.evaluate(async (def) => {
    const s = (window as unknown as Win).__firmaStandIn;
    await s.setup(def);
    s.calculateAll();
    await s.idle();
  }, workbook());
  await page.click("#test-key");
  await idle();
  await page.click("#estimate");
  await idle();
  await page.click("#settings-section summary");
  await page.waitForTimeout(400); // the bars' transition
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  if (pageErrors.length) throw new Error(`the page failed: ${pageErrors.join("; ")}`);
  const file = path.join(OUT, `pane-${lang}.png`);
  await page.locator("#pane").screenshot({ path: file });
  await context.close();
  return file;
}

/** The refresh section after a refresh that worked, and after one the service failed (issue 11: both outcomes, truthfully). */
async function outcome(h: Harness, kind: "ok" | "failed"): Promise<string> {
  const key = `demo-business-outcome-${kind}`;
  h.sandbox.reset(key);
  const { page, context, pageErrors } = await openPane(h, {
    displayLanguage: "ro-RO",
    viewport: { width: 360, height: 900 },
    deviceScaleFactor: 2,
  });
  const idle = () => page.waitForFunction(() => document.getElementById("pane")!.dataset.busy === "false");
  await page.fill("#api-key", key);
  await page.click("#save-key");
  await idle();
  await page.evaluate(async (def) => {
    const s = (window as unknown as Win).__firmaStandIn;
    await s.setup(def);
    s.calculateAll();
    await s.idle();
  }, workbook());
  if (kind === "failed") h.sandbox.config.faults = { errorRate: 1 };
  try {
    await page.click("#refresh");
    await idle();
    await page.waitForFunction(() => !!document.getElementById("refresh-status")!.dataset.outcome);
  } finally {
    h.sandbox.config.faults = {};
  }
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  if (pageErrors.length) throw new Error(`the page failed: ${pageErrors.join("; ")}`);
  const file = path.join(OUT, `refresh-${kind}.png`);
  await page.locator("#refresh-section").screenshot({ path: file });
  await context.close();
  return file;
}

async function main(): Promise<void> {
  if (!haveChromium) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or set FIRMA_CHROMIUM)`);
  fs.mkdirSync(OUT, { recursive: true });
  // The sandbox on its usual port when it is free, so the pane shows the development build's default address.
  const h = await startHarness({ sandboxPort: 3001 }).catch(() => startHarness());
  try {
    for (const lang of ["ro", "en"] as const) console.log(`wrote ${path.relative(process.cwd(), await shoot(h, lang))}`);
    for (const kind of ["ok", "failed"] as const) console.log(`wrote ${path.relative(process.cwd(), await outcome(h, kind))}`);
  } finally {
    await h.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
