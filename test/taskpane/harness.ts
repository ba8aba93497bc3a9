/**
 * What the pane's browser tests and scripts/screenshots.ts share: a development build of the add-in
 * in a temporary folder, served on 127.0.0.1; the sandbox on a free port; Debian's Chromium through
 * playwright-core; and pages of the built taskpane.html, either in a plain browser (office.js
 * reports host null) or "in Excel" (the Excel stand-in, bundled from test/support/excel/ by
 * test/support/excel/bundle.ts, injected before any script, and hooked into office.js right after it runs).
 *
 * Requests that leave loopback are blocked (and recorded), so nothing reaches the internet: the
 * harness's Chromium resolves no host name but loopback's (--host-resolver-rules), so such a request
 * fails at once, in the browser. Nothing is intercepted through Playwright's routing, which would
 * stop every request of the page (the sandbox's calls included) for a round trip through the test's
 * own process.
 */
import * as fs from "fs";
import * as http from "http";
import * as path from "path";
import type { AddressInfo } from "net";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { standInScriptPath } from "../support/excel/bundle";
const { ensureBuild } = require("../support/builds") as { ensureBuild(kind: "dev" | "local" | "deploy"): Promise<string> };

import { manifestUrls, type Manifest } from "../support/manifest-urls";
export const ROOT = path.resolve(__dirname, "..", "..");
export const CHROMIUM = process.env.FIRMA_CHROMIUM || "/usr/bin/chromium";
export const haveChromium = fs.existsSync(CHROMIUM);

/** Content types of the files a build serves (also the bench's browser page, bench/browser.ts). */
export const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css",
  ".png": "image/png",
  ".json": "application/json",
};

/** The development build of the present sources (made once, then kept: test/support/builds.js). */
export function build(): Promise<string> {
  return ensureBuild("dev");
}

/**
 * Debian's Chromium, headless, with nothing that reaches for the network on its own (this machine's
 * network is closed: without these flags Chromium keeps trying, and failing, to phone home).
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--font-render-hinting=none",
      ...extraArgs,
    ],
  });
}

/**
 * Appended to office.js as it is served: hooks the Excel stand-in (when a page has it) into Office
 * right after office.js runs and before the add-in's bundles. A page without the stand-in ignores it.
 */
const ATTACH_STAND_IN = "\n;window.__firmaStandIn && window.__firmaStandIn.attachOffice();\n";

/** Host names Chromium may resolve: loopback's only (the rest fail as not found, in the browser). */
export const LOOPBACK_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost";

/** A static file server for `dir` on 127.0.0.1 (port 0); office.js gets the stand-in's hook (ATTACH_STAND_IN). */
export function serve(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent((req.url ?? "/").split("?")[0]));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404).end();
        return;
      }
      const body = file === path.join(dir, "office-js", "office.js") ? Buffer.concat([data, Buffer.from(ATTACH_STAND_IN)]) : data;
      res.writeHead(200, { "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export interface Harness {
  dist: string;
  origin: string;
  browser: Browser;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** `sandboxPort`: where the sandbox listens (0, the default: any free port). */
export async function startHarness(options: { sandboxPort?: number } = {}): Promise<Harness> {
  let dist: string;
  let server: http.Server | undefined;
  let sandbox: Sandbox | undefined;
  let browser: Browser | undefined;
  try {
    dist = await build();
    server = await serve(dist);
    sandbox = await startSandbox({ port: options.sandboxPort ?? 0 });
    browser = await launchChromium([LOOPBACK_ONLY]);
  } catch (e) {
    await browser?.close();
    await sandbox?.close();
    server?.close();
    throw e;
  }
  const srv = server;
  return {
    dist,
    origin: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    browser,
    sandbox,
    async close() {
      await browser!.close();
      await sandbox!.close();
      await new Promise((r) => srv.close(r));
    },
  };
}

/** Office.context.officeTheme in Office's Black theme (https://learn.microsoft.com/javascript/api/office/office.officetheme). */
export const BLACK_THEME = {
  bodyBackgroundColor: "#262626",
  bodyForegroundColor: "#FFFFFF",
  controlBackgroundColor: "#404040",
  controlForegroundColor: "#FFFFFF",
  isDarkTheme: true,
  themeId: "Black",
};

export interface PaneOptions {
  /** Inject the Excel stand-in (host Excel); false: a plain browser (host null). @default true */
  excel?: boolean;
  /**
   * The manifest Excel loaded the add-in by (in dist/): the page is opened at its Taskpane.Url and the
   * functions are loaded from its JSON.Url, as Excel does. @default "manifest.xml"
   */
  manifest?: Manifest;
  /** Office's display language the stand-in reports. @default "ro-RO" */
  displayLanguage?: string;
  /** The newest ExcelApi requirement set the stand-in supports. @default the stand-in's ("1.17") */
  excelApi?: string;
  /** Office.context.platform the stand-in reports ("OfficeOnline": Excel on the web). @default "PC" */
  platform?: string;
  /** The CustomFunctionsRuntime set the stand-in supports ("1.4" and up: data types). @default the stand-in's ("1.3") */
  customFunctionsRuntime?: string;
  /** Office.context.officeTheme the stand-in reports (null: none). @default the stand-in's (Colorful) */
  officeTheme?: Record<string, unknown> | null;
  /** Stored as the service address before the page loads. @default the sandbox's URL */
  baseUrl?: string | null;
  viewport?: { width: number; height: number };
  /** @default 1 */
  deviceScaleFactor?: number;
  /**
   * Make the page's Date.now shiftable: `window.__firmaClockShift` (ms) is added to it, so a script
   * can move the engine's and meter's "now" (they keep a reference to Date.now) while timers run on.
   */
  shiftableClock?: boolean;
}

export interface OpenPane {
  page: Page;
  context: BrowserContext;
  /** Console messages (type: text) and page errors, in order. */
  console: string[];
  pageErrors: string[];
  /** Every URL the page asked for (including blocked ones). */
  requests: string[];
  /** Requests that would have left loopback. */
  blocked: string[];
}

/** Opens the manifest's page (taskpane.html) in a fresh browser context and waits until the pane is wired. */
export async function openPane(h: Harness, options: PaneOptions = {}): Promise<OpenPane> {
  const excel = options.excel ?? true;
  const context = await h.browser.newContext({
    viewport: options.viewport ?? { width: 360, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
  });
  const out: OpenPane = { page: undefined as unknown as Page, context, console: [], pageErrors: [], requests: [], blocked: [] };

  const loaded = manifestUrls(h.dist, options.manifest ?? "manifest.xml");
  if (excel) {
    await context.addInitScript({ path: standInScriptPath() });
    await context.addInitScript((file: string) => {
      const s = (window as unknown as { __firmaStandIn?: { metadataFile: string } }).__firmaStandIn;
      if (s) s.metadataFile = file;
    }, loaded.metadata);
    await context.addInitScript((lang: string) => {
      const s = (window as unknown as { __firmaStandIn?: { displayLanguage: string } }).__firmaStandIn;
      if (s) s.displayLanguage = lang;
    }, options.displayLanguage ?? "ro-RO");
    if (options.excelApi) {
      await context.addInitScript((v: string) => {
        const s = (window as unknown as { __firmaStandIn?: { excelApi: string } }).__firmaStandIn;
        if (s) s.excelApi = v;
      }, options.excelApi);
    }
    if (options.platform) {
      await context.addInitScript((v: string) => {
        const s = (window as unknown as { __firmaStandIn?: { platform: string } }).__firmaStandIn;
        if (s) s.platform = v;
      }, options.platform);
    }
    if (options.customFunctionsRuntime) {
      await context.addInitScript((v: string) => {
        const s = (window as unknown as { __firmaStandIn?: { customFunctionsRuntime: string } }).__firmaStandIn;
        if (s) s.customFunctionsRuntime = v;
      }, options.customFunctionsRuntime);
    }
    if (options.officeTheme !== undefined) {
      await context.addInitScript((theme: Record<string, unknown> | null) => {
        const s = (window as unknown as { __firmaStandIn?: { officeTheme: unknown } }).__firmaStandIn;
        if (s) s.officeTheme = theme;
      }, options.officeTheme);
    }
  }
  const baseUrl = options.baseUrl === undefined ? h.sandbox.url : options.baseUrl;
  if (baseUrl !== null) {
    await context.addInitScript((url: string) => {
      if (window.top !== window) return; // not in frames (office.js opens one, which is blocked)
      if (localStorage.getItem("firma.baseUrl") === null) localStorage.setItem("firma.baseUrl", url);
    }, baseUrl);
  }

  if (options.shiftableClock) {
    await context.addInitScript(() => {
      const w = window as unknown as { __firmaClockShift: number };
      const real = Date.now.bind(Date);
      w.__firmaClockShift = 0;
      Date.now = () => real() + w.__firmaClockShift;
    });
  }
  const page = await context.newPage();
  out.page = page;
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.pageErrors.push(String(e)));
  page.on("request", (r) => {
    const url = r.url();
    out.requests.push(url);
    if (/^https?:/.test(url) && !url.startsWith(h.origin) && !url.startsWith(h.sandbox.url)) out.blocked.push(url);
  });
  await page.goto(`${h.origin}/${loaded.page}`);
  await page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false", null, { timeout: 20_000 });
  return out;
}

/** The stand-in's API, for page.evaluate callbacks (window.__firmaStandIn: test/support/excel/browser.ts). */
export type { StandIn } from "../support/excel/browser";
