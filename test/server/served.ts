/**
 * What the deployment's browser test and the README's screenshot share: a production build for an
 * address, and the pane opened from `firma serve` as Excel would open it — the Excel stand-in
 * injected (test/support/excel/, bundled by bundle.ts), Microsoft's CDN answered from the @microsoft/office-js
 * package at the same addresses (so the page's own CSP applies), anything else off loopback refused.
 */
import * as fs from "fs";
import * as path from "path";
import { spawn } from "child_process";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT } from "../taskpane/harness";
import { standInScriptPath } from "../support/excel/bundle";

const CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/";
const OFFICE_JS = path.join(ROOT, "node_modules", "@microsoft", "office-js", "dist");

/** A production build into `outDir` for these variables. */
export function build(outDir: string, env: Record<string, string>): Promise<void> {
  const cli = path.join(ROOT, "node_modules", "webpack-cli", "bin", "cli.js");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "--mode", "production", "--output-path", outDir], {
      cwd: ROOT,
      env: { ...process.env, FIRMA_SERVICE_URL: "", FIRMA_SUPPORT_URL: "", ...env },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`webpack failed (${code}):\n${out}`))));
  });
}

/** The pane as Excel would open it from `server`: the stand-in injected, the CDN answered locally, nothing else off loopback. */
export async function openServed(
  browser: Browser,
  serverUrl: string,
): Promise<{ page: Page; context: BrowserContext; blocked: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 360, height: 900 } });
  const blocked: string[] = [];
  const errors: string[] = [];
  // Only what leaves loopback is intercepted (an intercepted request's CORS preflight is not the
  // browser's own): the CDN is answered from the package, anything else is refused and recorded.
  await context.route(
    (url) => url.href.startsWith(CDN),
    async (route) => {
      const file = path.join(OFFICE_JS, decodeURIComponent(route.request().url().slice(CDN.length).split("?")[0]));
      if (!file.startsWith(OFFICE_JS) || !fs.existsSync(file)) return route.fulfill({ status: 404, body: "" });
      let body = fs.readFileSync(file, "utf8");
      // As in the pane's tests: the stand-in hooks into office.js right after it runs.
      if (file === path.join(OFFICE_JS, "office.js")) body += "\n;window.__firmaStandIn && window.__firmaStandIn.attachOffice();\n";
      return route.fulfill({ status: 200, contentType: "text/javascript", body });
    },
  );
  await context.route(
    (url) => !url.href.startsWith(CDN) && !/^(127\.0\.0\.1|localhost)$/.test(url.hostname),
    (route) => {
      blocked.push(route.request().url());
      return route.abort();
    },
  );
  await context.addInitScript({ path: standInScriptPath() });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/.test(m.text())) errors.push(m.text());
  });
  await page.goto(`${serverUrl}taskpane.html`);
  await page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false", null, { timeout: 30_000 });
  return { page, context, blocked, errors };
}
