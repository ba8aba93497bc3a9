/**
 * The deployment end to end, in Chromium: the add-in built for an address (FIRMA_ADDIN_URL, a
 * production build: office.js from Microsoft's CDN, its Content-Security-Policy on), served by
 * `firma serve`, with the Excel stand-in injected as in the pane's tests, against a sandbox whose CORS
 * is switched off (a service built for servers only). Through the same-origin relay 1,000 names fill
 * at the API's minimum credits; the same add-in built to call the service directly fails, and its
 * cells say the likely cause (CORS).
 *
 * Microsoft's CDN cannot be reached here: its URLs are answered from the @microsoft/office-js package,
 * at the same addresses, so that the page's CSP is the one that ships.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Browser } from "playwright-core";
import { serve } from "../../src/server/main";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { CHROMIUM, haveChromium, launchChromium } from "../taskpane/harness";
import { build, openServed } from "./served";
import { fillNames as fill, saveKey } from "../support/pane";

if (!haveChromium) console.log(`firma serve browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;
jest.setTimeout(120_000);

const { DEPLOY_URL: ADDIN_URL, ensureBuild } = require("../support/builds") as {
  DEPLOY_URL: string;
  ensureBuild(kind: "deploy"): Promise<string>;
};

let sb: Sandbox;
let browser: Browser;
let tmp: string;
let relay: string;
const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

beforeAll(async () => {
  if (!haveChromium) return;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "firma-deploy-"));
  sb = await startSandbox({ port: 0, cors: false });
  // The relay's build is the tests' shared production build for ADDIN_URL; the direct one names the
  // sandbox's port, known only now, so it is made here.
  [relay] = await Promise.all([
    ensureBuild("deploy"),
    build(path.join(tmp, "direct"), { FIRMA_ADDIN_URL: ADDIN_URL, FIRMA_SERVICE_URL: sb.url }),
  ]);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

withChromium("the add-in built for an address, served by firma serve", () => {
  test("through the same-origin relay, 1,000 names fill at the API's minimum (10 credits) from a service that allows no browser", async () => {
    const server = await serve(["--host", "127.0.0.1", "--port", "0", "--http", "--dist", relay, "--upstream", sb.url], quiet);
    try {
      const { page, context, blocked, errors } = await openServed(browser, server.url);
      // The page that ships: office.js from the CDN, under its own CSP.
      const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
      expect(csp).toMatch(/connect-src 'self';/);
      const key = "demo-pro-deploy-relay";
      await saveKey(page, key);
      const cuis = data.sampleCuis(1000, 60_000).filter((c) => data.company(c));
      const shown = await fill(page, cuis);
      expect(shown).toHaveLength(cuis.length);
      const byRow = new Map(shown.map((c) => [Number(c.address.slice(1)), c]));
      cuis.forEach((c, i) => expect(byRow.get(i + 1)?.value).toBe(data.company(c)!.denumire));
      expect(sb.usage(key).month).toBe(Math.ceil(cuis.length / 100));
      // nothing of FIRMA's left loopback (office.js may open its own telemetry frame on Microsoft's hosts)
      expect(blocked.filter((u) => !/^https:\/\/[^/]*\.(microsoft\.com|office\.com|office\.net|oaspapps\.com)\//.test(u))).toEqual([]);
      expect(errors).toEqual([]);
      // the manifest an administrator uploads
      const manifest = await (await fetch(`${server.url}manifest.xml`)).text();
      expect(manifest).toContain(`<SourceLocation DefaultValue="${ADDIN_URL}taskpane.html`);
      await context.close();
    } finally {
      await server.close();
    }
  });

  test("the same add-in built to call the service directly fails with a message that names the likely cause (CORS)", async () => {
    const server = await serve(
      ["--host", "127.0.0.1", "--port", "0", "--http", "--dist", path.join(tmp, "direct"), "--upstream", sb.url],
      quiet,
    );
    try {
      const { page, context } = await openServed(browser, server.url);
      const key = "demo-pro-deploy-direct";
      await saveKey(page, key);
      const cuis = data.sampleCuis(3, 61_000).filter((c) => data.company(c));
      const shown = await fill(page, cuis);
      expect(shown).toHaveLength(cuis.length);
      for (const c of shown) {
        expect(c.value).toBe("#N/A");
        expect(c.message).toMatch(
          /^Serviciul nu a putut fi contactat din add-in: e oprit, sau nu permite apeluri din adresa add-in-ului \(CORS\)/,
        );
      }
      // (A real browser stops at the refused preflight and sends nothing; with Playwright's routing on,
      // the preflight is not the browser's own and the GET reaches the sandbox: no credit figure here.)
      await context.close();
    } finally {
      await server.close();
    }
  });
});
