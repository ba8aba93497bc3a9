/**
 * BROWSER: the built add-in (dist/, the production bundles as the runtime page loads them) in headless
 * Chromium, filling `DENUMIRE` cells of distinct companies against the sandbox (W5's 10,000 for the time to
 * the last cell, 100,000 for the heap), then recalculating them from the cache.
 * What a webview would hold: the page's JavaScript heap, from Chromium's own counter (CDP
 * `Runtime.getHeapUsage`), sampled every 100 ms while the fill runs (as often as the page lets the
 * DevTools protocol in), after a garbage collection before each phase.
 *
 * The page is taskpane.html of dist/ served on 127.0.0.1, with the pane's Excel stand-in
 * (test/support/excel/, bundled by bundle.ts) injected as in the pane's browser tests; office.js, which the
 * production page loads from Microsoft's CDN, is served from the local copy (@microsoft/office-js), so
 * nothing leaves the machine. The production page's Content-Security-Policy lets it connect to its own
 * origin only (scripts/deployment.js), so the page's server passes `/v4/…` on to the sandbox, as a
 * deployment that serves the service from the add-in's origin would. The cells are invoked the way Excel invokes a recalculation: every one at
 * once, with its literal argument (the stand-in's `call`); their values are checked and not kept, as
 * Excel keeps cell values outside the add-in's heap. (The stand-in's `calculateAll` looks up each settled
 * cell's dependents over the whole sheet: fine for a test's 120 cells, quadratic at 100,000.)
 */
import * as fs from "fs";
import * as path from "path";
import * as http from "http";
import type { AddressInfo } from "net";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import * as data from "../sandbox/dataset";
import { standInScriptPath } from "../test/support/excel/bundle";
import { CHROMIUM, CONTENT_TYPES, haveChromium, launchChromium } from "../test/taskpane/harness";
import { round } from "./measure";
import { latencyBound } from "./workloads";

const CONCURRENCY = 6;
const CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/";
const OFFICE_JS_DIR = path.resolve(__dirname, "..", "node_modules", "@microsoft", "office-js", "dist");
const say = (s: string) => process.stderr.write(s + "\n");

export interface BrowserPhase {
  name: string;
  calls: number;
  timeMs: number;
  /** Cells whose value is the company's name. */
  right: number;
  /** Cells with anything else (an error, another value). */
  other: number;
  /** The heap after a garbage collection, before the phase (MB). */
  startMb: number;
  /** The highest heap sampled during the phase (MB). */
  peakMb: number;
  samples: number;
}

export interface BrowserResult {
  chromium: string;
  names: number;
  minimumCalls: number;
  latencyMs: number;
  boundMs: number;
  /** The page's heap once loaded, before any cell (MB, after a garbage collection). */
  loadedMb: number;
  phases: BrowserPhase[];
  /** The heap after the recalculation and a garbage collection: what stays held (MB). */
  afterMb: number;
  /** Whether 2,000 other names were filled first (warm code and connections). */
  warmUp?: boolean;
}

interface Svc {
  readonly url: string;
  usage(key: string): Promise<{ total: number; refused: number; calls: number }>;
}

/** dist/ on 127.0.0.1, with the service's paths passed on to the sandbox (the page may connect to its own origin only). */
function serveWithService(dir: string, service: string): Promise<http.Server> {
  const target = new URL(service);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/v4/")) {
      const up = http.request(
        { host: target.hostname, port: target.port, path: url, method: req.method, headers: { ...req.headers, host: target.host }, agent },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on("error", () => res.writeHead(502).end());
      req.pipe(up);
      return;
    }
    const file = path.join(dir, decodeURIComponent(url.split("?")[0]));
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    fs.readFile(file, (err, body) => {
      if (err) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

/** Samples the page's heap every `everyMs` until stopped; keeps the peak. */
function sampler(cdp: CDPSession, everyMs = 100) {
  let peak = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
      samples++;
      if (usedSize > peak) peak = usedSize;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
      return { peak: Math.max(peak, usedSize), samples: samples + 1 };
    },
  };
}

/**
 * Waits until `expr` is true in the page, asked from here: page.waitForFunction polls inside the page with
 * eval, which the production page's Content-Security-Policy refuses ('unsafe-eval' is not allowed) once the
 * first check is false.
 */
export async function waitInPage(page: Page, expr: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await page.evaluate(expr))) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("HeapProfiler.collectGarbage");
  return ((await cdp.send("Runtime.getHeapUsage")) as { usedSize: number }).usedSize;
}

/**
 * Every cell at once in the page, as Excel recalculates; resolves with the time to the last and the tally.
 * Page code goes as text: tsx's helpers (`__name`) do not exist in the page.
 */
export async function fillInPage(
  page: Page,
  cuis: number[],
  names: string[],
): Promise<{ timeMs: number; right: number; first: string; startedAt: number }> {
  await page.evaluate(`window.__benchCells = ${JSON.stringify({ cuis, names })}`);
  // The harness is the instrument, as the Node bench's fillBounded (hardening.ts): per waiting cell it
  // keeps the cell's promise and one reaction (a function made once per fill, no closure per cell), and
  // reads the answers once all have settled. Two closures, a derived promise and a Promise.all element per
  // cell held about 20 MB of the page's heap at 100,000 waiting cells that are not the add-in's.
  return page.evaluate(`(async () => {
    const s = window.__firmaStandIn;
    const { cuis, names } = window.__benchCells;
    const n = cuis.length;
    const promises = new Array(n);
    let settled = 0, last = 0, done;
    const finished = new Promise((r) => (done = r));
    const tick = () => { last = performance.now(); if (++settled === n) done(); };
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const p = s.call("DENUMIRE", [cuis[i]]);
      promises[i] = p;
      p.then(tick, tick);
    }
    if (n === 0) done();
    await finished;
    let right = 0, first = "";
    for (let i = 0; i < n; i++) {
      try {
        const m = await promises[i];
        if (m[0][0] === names[i]) right++; else if (!first) first = JSON.stringify(m).slice(0, 200);
      } catch (e) {
        if (!first) first = String(e).slice(0, 200);
      }
    }
    return { timeMs: last - t0, right, first, startedAt: performance.timeOrigin + t0 };
  })()`);
}

/**
 * The built add-in's taskpane.html from `origin` in a new context of `browser`, as BROWSER and H2 open it:
 * the Excel stand-in injected, office.js from its local copy, the key and the service address (the
 * page's own origin) saved, the cost guard off (a bench fill is confirmed in advance); resolves once the
 * pane is ready and DENUMIRE is registered, with every route let go.
 */
export async function openPane(
  browser: Browser,
  origin: string,
  key: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith(origin)) return route.continue();
    if (url.startsWith(CDN)) {
      // office.js and the files it loads from its own folder, from the local copy; the stand-in hooks in after office.js.
      const file = path.join(OFFICE_JS_DIR, url.slice(CDN.length).split("?")[0]);
      if (!file.startsWith(OFFICE_JS_DIR) || !fs.existsSync(file)) return route.abort();
      let body = fs.readFileSync(file, "utf8");
      if (file.endsWith(`${path.sep}office.js`)) body += "\n;window.__firmaStandIn && window.__firmaStandIn.attachOffice();\n";
      return route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body });
    }
    return route.abort();
  });
  await context.addInitScript({ path: standInScriptPath() });
  await context.addInitScript(`(() => {
    if (window.top !== window) return;
    localStorage.setItem("firma.baseUrl", ${JSON.stringify(origin)});
    localStorage.setItem("firma.apiKey", ${JSON.stringify(key)});
    localStorage.setItem("firma.guardThreshold", "off"); // a bench fill is confirmed in advance
    localStorage.setItem("firma.language", "en");
    // The stand-in records every call for the tests' assertions: not the add-in's memory, not kept here.
    if (window.__firmaStandIn) window.__firmaStandIn.calls = { push: () => 0, length: 0 };
  })()`);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${origin}/taskpane.html`);
  await waitInPage(page, `document.getElementById("pane")?.getAttribute("aria-busy") === "false"`);
  await waitInPage(page, `!!window.__firmaStandIn && window.__firmaStandIn.functions.has("DENUMIRE")`);
  // The routes above served office.js while the page loaded. Playwright routes by pausing every request
  // of the page in Chromium (CDP Fetch interception, all URLs, whatever the pattern) until this process
  // lets it go: each of the fill's calls would wait for a round trip to the bench's own busy event
  // loop, a cost no Excel has. The fill's calls go to the page's own origin, untouched from here on.
  await context.unrouteAll({ behavior: "wait" });
  return { context, page, errors };
}

export async function browserFill(
  svc: Svc,
  latencyMs: number,
  names = 100_000,
  dist = process.env.FIRMA_DIST ?? "dist",
  /** A warm-up fill of 2,000 other names before the measured ones (the time run); the heap run starts cold. */
  warmUp = false,
): Promise<BrowserResult> {
  if (!haveChromium) throw new Error(`no Chromium at ${CHROMIUM}`);
  const root = path.resolve(dist);
  if (!fs.existsSync(path.join(root, "taskpane.html"))) throw new Error(`${root}/taskpane.html is missing: not a build of the add-in`);
  const cuis = data.sampleCuis(names, 900_000);
  const expected = cuis.map((c) => data.company(c)?.denumire ?? "");
  const minimumCalls = Math.ceil(names / 100);
  const boundMs = latencyBound(minimumCalls, CONCURRENCY, latencyMs);
  say(`BROWSER: the built add-in (${root}) in headless Chromium, ${names.toLocaleString("en")} × DENUMIRE, ${latencyMs} ms latency`);
  const server = await serveWithService(root, svc.url);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const key = `demo-enterprise-browser-${process.pid}-${Date.now()}`;
  try {
    const { context, page, errors } = await openPane(browser, origin, key);
    if (warmUp) {
      // As every fill of the Node bench (run.ts WARM_UP): 2,000 other names first, so that the measured
      // fill does not also pay for cold code and the first connections (Excel's runtime page stays loaded).
      const others = data.sampleCuis(2_000, 800_000);
      await fillInPage(
        page,
        others,
        others.map((c) => data.company(c)?.denumire ?? ""),
      );
      await page.waitForTimeout(1000); // the cache's save after it
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("HeapProfiler.enable");
    const loadedMb = mb(await heapAfterGc(cdp));
    const phases: BrowserPhase[] = [];
    for (const name of ["first fill", "recalculation (from the cache)"]) {
      const startMb = mb(await heapAfterGc(cdp));
      const before = await svc.usage(key);
      const s = sampler(cdp);
      const r = await fillInPage(page, cuis, expected);
      if (r.first) say(`  BROWSER ${name}: a cell other than its name: ${r.first}`);
      const { peak, samples } = await s.stop();
      const after = await svc.usage(key);
      const p: BrowserPhase = {
        name,
        calls: after.calls - before.calls,
        timeMs: round(r.timeMs),
        right: r.right,
        other: names - r.right,
        startMb,
        peakMb: mb(peak),
        samples,
      };
      phases.push(p);
      say(
        `  BROWSER ${name}: ${p.calls} calls, ${p.timeMs} ms (bound ${boundMs}, ${round(p.timeMs / boundMs, 2)}×), heap ${p.startMb} → peak ${p.peakMb} MB ` +
          `(${samples} samples); ${p.right} right, ${p.other} other`,
      );
      await page.waitForTimeout(1000); // the cache's save after the fill
    }
    const afterMb = mb(await heapAfterGc(cdp));
    if (errors.length) say(`  BROWSER page errors: ${errors.slice(0, 3).join(" | ")}`);
    await context.close();
    return { chromium: browser.version(), names, minimumCalls, latencyMs, boundMs, loadedMb, phases, afterMb, warmUp };
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/** The targets the issue sets: under 200 MB of heap at the fill's peak (100,000 names); W5 (10,000 names) ≤ 1.15 × the latency bound. */
export const BROWSER_PEAK_TARGET_MB = 200;
export const W5_NAMES = 10_000;
export const BROWSER_W5_TARGET = 1.15;

export function browserTargets(b: BrowserResult | { error: string } | undefined): { target: string; measured: string; met: boolean }[] {
  if (!b || "error" in b) return [];
  const [fill, recalc] = b.phases;
  if (b.names === W5_NAMES) {
    return [
      {
        target: `BROWSER W5: ${b.names.toLocaleString("en")} names in Chromium, time to the last cell ≤ ${BROWSER_W5_TARGET} × latency bound (${b.boundMs.toLocaleString("en")} ms), every cell right`,
        measured: `${fill.timeMs.toLocaleString("en")} ms = ${round(fill.timeMs / b.boundMs, 2)} × bound, ${fill.right.toLocaleString("en")} right`,
        met: fill.timeMs <= BROWSER_W5_TARGET * b.boundMs && fill.right === b.names,
      },
    ];
  }
  const out = [
    {
      target: `BROWSER: ${b.names.toLocaleString("en")} names in Chromium, JS heap < ${BROWSER_PEAK_TARGET_MB} MB at the fill's peak`,
      measured: `${fill.peakMb} MB`,
      met: fill.peakMb < BROWSER_PEAK_TARGET_MB && fill.right === b.names,
    },
  ];
  if (recalc) {
    // Cells the fill could not answer (a call that timed out) are fetched by the recalculation: those calls only.
    const owed = Math.ceil(fill.other / 100);
    out.push({
      target: "BROWSER: recalculation from the cache, 0 calls beyond the batches of cells the fill could not answer",
      measured: `${recalc.calls} calls (${fill.other.toLocaleString("en")} cells unanswered by the fill: ${owed} batches)`,
      met: recalc.calls <= owed,
    });
  }
  return out;
}

export function browserMarkdown(b: BrowserResult | { error: string } | undefined): string[] {
  if (!b) return [];
  const lines = [`## BROWSER: the built add-in in headless Chromium${"error" in b ? "" : `, ${b.names.toLocaleString("en")} names`}`, ""];
  if ("error" in b) return [...lines, `Not measured: ${b.error}`, ""];
  const n = (v: number) => v.toLocaleString("en");
  lines.push(
    `dist/'s taskpane.html (the production bundles, office.js from its local copy, the pane's Excel stand-in) in Chromium ${b.chromium}, headless; ` +
      `${n(b.names)} cells \`=FIRMA.DENUMIRE(cui)\` of distinct companies, invoked all at once as Excel recalculates, against the sandbox at ${b.latencyMs} ms per call. ` +
      `API minimum ${n(b.minimumCalls)} calls; latency bound ⌈${n(b.minimumCalls)} / ${CONCURRENCY}⌉ × ${b.latencyMs} ms = ${n(b.boundMs)} ms. ` +
      `JS heap: Chromium's counter (CDP \`Runtime.getHeapUsage\`, used size), sampled every 100 ms during each phase as the page lets it, after a garbage collection before each. ` +
      `The page's heap once loaded${b.warmUp ? " and warmed up by a fill of 2,000 other names (as the Node bench warms every strategy)" : ", cold (no fill before)"}: ${b.loadedMb} MB; after the recalculation and a garbage collection (what stays held): ${b.afterMb} MB.`,
    "",
    "| Phase | Calls | Time to the last cell | × bound | Heap before → peak | Right | Other |",
    "|---|---:|---:|---:|---|---:|---:|",
  );
  for (const p of b.phases)
    lines.push(
      `| ${p.name} | ${n(p.calls)} | ${n(p.timeMs)} ms | ${round(p.timeMs / b.boundMs, 2)} | ${p.startMb} → **${p.peakMb} MB** (${p.samples} samples) | ${n(p.right)} | ${n(p.other)} |`,
    );
  lines.push("");
  return lines;
}
