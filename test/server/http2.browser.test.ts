/**
 * The add-in in Chromium, loaded from `firma serve` over HTTPS (a certificate made here, accepted with
 * --ignore-certificate-errors): its /v4 calls go to its own origin over HTTP/2, and more than 6 are at
 * the service at once (the sandbox counts them); the same add-in in a Chromium that does not speak
 * HTTP/2 keeps 6. Both fill the same 3,000 names at the API's minimum (30 credits).
 */
import type { Browser } from "playwright-core";
import { serve } from "../../src/server/main";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { CHROMIUM, haveChromium, launchChromium } from "../taskpane/harness";
import { openServed } from "./served";
import { fillNames as fill, saveKey } from "../support/pane";
import { selfSignedCertificate, type TestCertificate } from "../support/tls";

if (!haveChromium) console.log(`HTTP/2 browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;
jest.setTimeout(180_000);

const { ensureBuild } = require("../support/builds") as { ensureBuild(kind: "deploy"): Promise<string> };

let sb: Sandbox;
let cert: TestCertificate;
let dist: string;
const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

beforeAll(async () => {
  if (!haveChromium) return;
  cert = selfSignedCertificate();
  sb = await startSandbox({ port: 0, cors: false, latencyMs: 100 });
  dist = await ensureBuild("deploy");
}, 600_000);

afterAll(async () => {
  await sb?.close();
  cert?.remove();
});

/** Fills 3,000 names in the pane served over HTTPS, in a Chromium launched with `args`: the protocols seen, the most calls at once at the sandbox, the credits. */
async function run(args: string[], key: string, offset: number) {
  const browser: Browser = await launchChromium(["--ignore-certificate-errors", ...args]);
  const server = await serve(
    ["--host", "127.0.0.1", "--port", "0", "--dist", dist, "--tls-cert", cert.certFile, "--tls-key", cert.keyFile, "--upstream", sb.url],
    quiet,
  );
  try {
    const { page, context, errors } = await openServed(browser, server.url);
    await saveKey(page, key);
    const cuis = data.sampleCuis(3000, offset).filter((c) => data.company(c));
    sb.reset();
    const t0 = performance.now();
    const shown = await fill(page, cuis);
    const ms = performance.now() - t0;
    const byRow = new Map(shown.map((c) => [Number(c.address.slice(1)), c.value]));
    expect(cuis.map((_, i) => byRow.get(i + 1))).toEqual(cuis.map((c) => data.company(c)!.denumire));
    const protocols = await page.evaluate(() => [
      ...new Set(
        (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
          .filter((e) => e.name.startsWith(`${location.origin}/v4/`))
          .map((e) => e.nextHopProtocol),
      ),
    ]);
    // The page's own load, which the add-in reads before its first answer (lanes.ts): over the network, and how.
    const load = await page.evaluate(() => {
      const e = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      return { protocol: e?.nextHopProtocol ?? null, overNetwork: (e?.transferSize ?? 0) > 0, type: e?.type ?? null };
    });
    expect(errors).toEqual([]);
    await context.close();
    return { protocols, load, peak: sb.concurrency.peak, credits: sb.usage(key).month, calls: Math.ceil(cuis.length / 100), ms };
  } finally {
    await server.close();
    await browser.close();
  }
}

withChromium("the add-in over HTTP/2 from firma serve", () => {
  test("over HTTP/2 more than 6 calls are out at once; over HTTP/1.1, 6; the same credits", async () => {
    const h2 = await run([], "demo-pro-h2-browser", 80_000);
    const h1 = await run(["--disable-http2"], "demo-pro-h1-browser", 90_000);
    process.stderr.write(
      `3,000 names at 100 ms: HTTP/2 ${h2.ms.toFixed(0)} ms, peak ${h2.peak} at once; HTTP/1.1 ${h1.ms.toFixed(0)} ms, peak ${h1.peak}\n`,
    );
    expect(h2.protocols).toEqual(["h2"]);
    expect(h2.load).toEqual({ protocol: "h2", overNetwork: true, type: "navigate" });
    expect(h1.load).toEqual({ protocol: "http/1.1", overNetwork: true, type: "navigate" });
    expect(h2.peak).toBeGreaterThan(6);
    expect(h1.protocols).toEqual(["http/1.1"]);
    expect(h1.peak).toBeLessThanOrEqual(6);
    expect(h2.credits).toBe(h2.calls);
    expect(h1.credits).toBe(h1.calls);
  });
});
