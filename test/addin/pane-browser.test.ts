/**
 * The development build's pane page in headless Chromium, served from a temporary folder on
 * 127.0.0.1: office.js loads from the local copy (no request leaves the machine), no script fails,
 * every function in functions.json is registered with CustomFunctions.associate, and the key form
 * saves to storage. (Outside Excel, office.js still defines CustomFunctions.associate, but not the
 * host's CustomFunctions.ErrorCode: code that reads it at load time fails here as it can in Excel.)
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM); skipped, with a message, without it.
 */
import * as fs from "fs";
import * as http from "http";
import * as path from "path";
import type { AddressInfo } from "net";
import type { Browser } from "playwright-core";
import { build, CHROMIUM, haveChromium, launchChromium, serve } from "../taskpane/harness";

if (!haveChromium) console.log(`pane browser test SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;

withChromium("the pane page in a browser", () => {
  let dist: string;
  let server: http.Server;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    dist = await build();
    server = await serve(dist);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
  });

  test("loads offline, registers every function, and saves the key", async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    const requests: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("request", (r) => requests.push(r.url()));

    await page.goto(`${origin}/taskpane.html`);
    await page.waitForFunction(() => document.getElementById("pane")?.getAttribute("aria-busy") === "false", null, {
      timeout: 15_000,
    });
    expect(await page.textContent("#key-state")).toMatch(/Nicio cheie/);

    const declared = (
      JSON.parse(fs.readFileSync(path.join(dist, "functions.json"), "utf8")) as {
        functions: { id: string }[];
      }
    ).functions.map((f) => f.id);
    const associated = await page.evaluate(() =>
      Object.keys(
        (globalThis as unknown as { CustomFunctions: { _association: { m_mappings: object } } }).CustomFunctions._association.m_mappings,
      ),
    );
    expect(pageErrors).toEqual([]);
    expect(associated.sort()).toEqual([...declared].sort());
    expect(associated).toContain("DENUMIRE");

    await page.fill("#api-key", "demo-pro");
    await page.click("#save-key");
    await page.waitForFunction(() => /salvat/.test(document.getElementById("key-status")?.textContent ?? ""));
    expect(await page.inputValue("#api-key")).toBe("");
    expect(await page.evaluate(() => localStorage.getItem("firma.apiKey"))).toBe("demo-pro");

    expect(requests.filter((u) => !u.startsWith(origin))).toEqual([]);
    expect(requests).toContain(`${origin}/office-js/office.js`);
    await page.close();
  });
});
