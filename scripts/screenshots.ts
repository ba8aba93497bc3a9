/**
 * Screenshots of the task pane for the README, from the real page: a development build served on
 * 127.0.0.1, the sandbox as the service, headless Chromium, and the Excel stand-in of the pane's
 * browser tests (test/taskpane/). For each language it saves a key, gives the meter a month of use by
 * calling the functions on earlier days of this month (the page's Date.now is shifted to each day;
 * the calls are real calls to the sandbox), tests the key, fills a workbook, and shows a refresh
 * estimate.
 *
 *   npx tsx scripts/screenshots.ts          → docs/screenshots/pane-ro.png, pane-en.png, refresh-ok.png, refresh-failed.png,
 *                                             changes.png, dark.png, help-en.png, card.png, served.png
 *   npx tsx scripts/screenshots.ts served   → only served.png: the pane of a production build served by
 *                                             `firma serve` (test/server/served.ts), filled through its relay
 *
 * card.png is not Excel's own card (Excel cannot run here): it is the entity value FIRMA.FISA
 * returns in the stand-in (CustomFunctionsRuntime 1.4), laid out as Excel's card lays one out —
 * the title property, then each section's properties with their values.
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Page } from "playwright-core";
import { bucharestDay } from "../src/engine/credits/bucharest-time";
import * as data from "../sandbox/dataset";
import {
  BLACK_THEME,
  haveChromium,
  CHROMIUM,
  openPane,
  startHarness,
  type Harness,
  type PaneOptions,
  type StandIn,
} from "../test/taskpane/harness";

import { serve } from "../src/server/main";
import { build, openServed } from "../test/server/served";

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

/** A pane "in Excel" at 360 px, 2× pixels: with a saved key when `key` is given (its sandbox counter reset first). */
async function session(h: Harness, key: string | null, options: PaneOptions = {}) {
  if (key) h.sandbox.reset(key);
  const open = await openPane(h, { displayLanguage: "ro-RO", viewport: { width: 360, height: 900 }, deviceScaleFactor: 2, ...options });
  const { page } = open;
  const idle = () => page.waitForFunction(() => document.getElementById("pane")!.dataset.busy === "false");
  const click = async (selector: string) => {
    await page.click(selector);
    await idle();
  };
  if (key) {
    await page.fill("#api-key", key);
    await click("#save-key");
  }
  return {
    ...open,
    click,
    /** Sets up the workbook and lets Excel calculate it (the FIRMA cells fetch, as on opening). */
    async fill(def: Parameters<StandIn["setup"]>[0]): Promise<void> {
      await page.evaluate(async (d) => {
        const s = (window as unknown as Win).__firmaStandIn;
        await s.setup(d);
        s.calculateAll();
        await s.idle();
      }, def);
    },
    /** Saves `selector` (or the whole viewport clipped to `clip`) as docs/screenshots/`name`, then closes. */
    async save(name: string, selector: string, clip?: { height: number }): Promise<string> {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      if (open.pageErrors.length) throw new Error(`the page failed: ${open.pageErrors.join("; ")}`);
      const file = path.join(OUT, name);
      if (clip) {
        const box = (await page.locator(selector).boundingBox())!;
        await page.setViewportSize({ width: 360, height: Math.ceil(box.y + box.height) + 20 });
        await page.screenshot({ path: file, clip: { x: box.x, y: box.y, width: box.width, height: clip.height } });
      } else await page.locator(selector).screenshot({ path: file });
      await open.context.close();
      return file;
    },
  };
}

async function shoot(h: Harness, lang: "ro" | "en"): Promise<string> {
  const s = await session(h, `demo-business-screens-${lang}`, { displayLanguage: lang === "ro" ? "ro-RO" : "en-US", shiftableClock: true });
  await history(s.page, lang === "ro" ? 20_000 : 40_000);
  await s.fill(workbook());
  await s.click("#test-key");
  await s.click("#estimate");
  await s.page.click("#settings-section summary");
  await s.page.waitForTimeout(400); // the bars' transition
  return s.save(`pane-${lang}.png`, "#pane");
}

/** The refresh section after a refresh that worked, and after one the service failed (both outcomes, truthfully). */
async function outcome(h: Harness, kind: "ok" | "failed"): Promise<string> {
  const s = await session(h, `demo-business-outcome-${kind}`);
  await s.fill(workbook());
  if (kind === "failed") h.sandbox.config.faults = { errorRate: 1 };
  try {
    await s.click("#refresh");
    await s.page.waitForFunction(() => !!document.getElementById("refresh-status")!.dataset.outcome);
  } finally {
    h.sandbox.config.faults = {};
  }
  return s.save(`refresh-${kind}.png`, "#refresh-section");
}

/** The changes a refresh found: the registry changes three companies (sandbox overrides), then a refresh. */
async function changes(h: Harness): Promise<string> {
  const s = await session(h, "demo-business-changes");
  await s.fill(workbook());
  const cuis = data.sampleCuis(40, 5000);
  h.sandbox.config.overrides = {
    [String(cuis[3])]: { stare: "INSOLVENTA" },
    [String(cuis[7])]: { stare: "RADIATA" },
    [String(cuis[12])]: { denumire: "NOUA DENUMIRE CONSTRUCT SRL" },
  };
  try {
    await s.click("#refresh");
  } finally {
    h.sandbox.config.overrides = {};
  }
  return s.save("changes.png", "#refresh-section");
}

/** The pane in Office's Black theme, after an estimate. */
async function dark(h: Harness): Promise<string> {
  const s = await session(h, "demo-business-dark", { officeTheme: BLACK_THEME });
  await s.fill(workbook());
  await s.click("#estimate");
  await s.page.waitForTimeout(400);
  return s.save("dark.png", "#pane");
}

/** Help in an English Office: the English function names (FIRMA.NAME, …) with English examples and separators. */
async function helpEnglish(h: Harness): Promise<string> {
  const s = await session(h, null, { displayLanguage: "en-US" });
  await s.page.click("#help-section summary");
  // The first functions of the list (the whole list is a long page).
  return s.save("help-en.png", "#help-section", { height: 900 });
}

/** The entity value of =FIRMA.FISA(cui), drawn as a card: its title, sections and values as Excel receives them. */
async function card(h: Harness): Promise<string> {
  const s = await session(h, "demo-business-card");
  const page = s.page;
  const entity = (await page.evaluate(async (cui) => {
    const standIn = (window as unknown as Win).__firmaStandIn as unknown as {
      customFunctionsRuntime: string;
      call(id: string, a: unknown[]): Promise<unknown>;
    };
    standIn.customFunctionsRuntime = "1.4";
    return standIn.call("FISA", [cui]);
  }, data.EXAMPLE_CUI)) as unknown;
  const value = (Array.isArray(entity) ? (entity as unknown[][])[0][0] : entity) as {
    type: string;
    text: string;
    properties: Record<string, { basicValue?: unknown }>;
    layouts: { card: { title?: { property: string }; sections: { title: string; properties: string[] }[] } };
  };
  if (value?.type !== "Entity") throw new Error(`FISA gave no entity value: ${JSON.stringify(entity).slice(0, 200)}`);
  const esc = (x: unknown) => String(x ?? "").replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  // Numbers as Excel's General format shows them (the entity gives no number format: DoubleCellValue.numberFormat needs ExcelApi 1.19)
  const shown = (v: unknown) => (typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : v);
  const title = value.layouts.card.title ? value.properties[value.layouts.card.title.property]?.basicValue : value.text;
  const sections = value.layouts.card.sections
    .map(
      (sec) =>
        `<section><h2>${esc(sec.title)}</h2>${sec.properties
          .filter((p) => value.properties[p])
          .map((p) => `<div class="row"><span>${esc(p)}</span><b>${esc(shown(value.properties[p].basicValue))}</b></div>`)
          .join("")}</section>`,
    )
    .join("");
  const html = `<!doctype html><meta charset="utf-8"><style>
    body{margin:0;padding:16px;background:#f3f3f3;font:14px "Segoe UI",Roboto,Arial,sans-serif;color:#242424}
    .formula{font:13px Consolas,monospace;background:#fff;border:1px solid #d1d1d1;padding:6px 8px;margin-bottom:10px}
    .card{box-sizing:border-box;width:328px;background:#fff;border-radius:8px;box-shadow:0 4px 16px rgba(0,0,0,.18);padding:16px 18px}
    h1{font-size:18px;margin:0 0 8px} h2{font-size:12px;text-transform:uppercase;color:#616161;margin:14px 0 4px;letter-spacing:.04em}
    .row{display:flex;justify-content:space-between;gap:12px;padding:3px 0;border-bottom:1px solid #eee}
    .row span{color:#424242} .row b{font-weight:600;text-align:right}
    .note{font-size:11px;color:#707070;margin-top:10px;width:328px}
  </style><div class="formula">=FIRMA.FISA(${data.EXAMPLE_CUI}) → ${esc(value.text)}</div>
  <div class="card" id="card"><h1>${esc(title)}</h1>${sections}</div>
  <p class="note">Conținutul valorii de tip entitate pe care FIRMA.FISA o întoarce (titlu, secțiuni, valori), desenat ca fișa din Excel.</p>`;
  await page.setContent(html);
  return s.save("card.png", "body");
}

/**
 * The pane of a production build (for https://addin.firma-mea.ro/) served by `firma serve --sandbox`,
 * a key saved and a sheet filled through the relay: what a firm's people see.
 */
async function served(h: Harness): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "firma-shot-"));
  const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
  try {
    await build(tmp, { FIRMA_ADDIN_URL: "https://addin.firma-mea.ro/" });
    const server = await serve(["--host", "127.0.0.1", "--port", "0", "--http", "--dist", tmp, "--upstream", h.sandbox.url], quiet);
    try {
      const { page, context } = await openServed(h.browser, server.url);
      await page.setViewportSize({ width: 360, height: 900 });
      await page.fill("#api-key", "demo-pro-served");
      await page.click("#save-key");
      await page.waitForFunction(() => document.getElementById("pane")!.dataset.busy === "false");
      const cuis = data.sampleCuis(40, 90_000);
      const cells: Record<string, unknown> = {};
      cuis.forEach((c, i) => {
        cells[`A${i + 1}`] = c;
        cells[`B${i + 1}`] = `=FIRMA.DENUMIRE(A${i + 1})`;
      });
      await page.evaluate(
        async (def) => {
          const s = (window as unknown as Win).__firmaStandIn;
          await s.setup(def);
          s.calculateAll();
          await s.idle();
        },
        { sheets: { Foaie1: cells } },
      );
      await page.waitForFunction(() => document.getElementById("meter-month-bar")!.getAttribute("aria-valuenow") !== "0");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const file = path.join(OUT, "served.png");
      await page.screenshot({ path: file, clip: { x: 0, y: 0, width: 360, height: 900 } });
      await context.close();
      return file;
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!haveChromium) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or set FIRMA_CHROMIUM)`);
  fs.mkdirSync(OUT, { recursive: true });
  if (process.argv[2] === "served") {
    const h = await startHarness();
    try {
      console.log(`wrote ${path.relative(process.cwd(), await served(h))}`);
    } finally {
      await h.close();
    }
    return;
  }
  // The sandbox on its usual port when it is free, so the pane shows the development build's default address.
  const h = await startHarness({ sandboxPort: 3001 }).catch(() => startHarness());
  try {
    for (const lang of ["ro", "en"] as const) console.log(`wrote ${path.relative(process.cwd(), await shoot(h, lang))}`);
    for (const kind of ["ok", "failed"] as const) console.log(`wrote ${path.relative(process.cwd(), await outcome(h, kind))}`);
    for (const shot of [changes, dark, helpEnglish, card, served]) console.log(`wrote ${path.relative(process.cwd(), await shot(h))}`);
  } finally {
    await h.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
