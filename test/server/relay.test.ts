/**
 * `firma serve`'s relay and pages (src/server/app.ts, relay.ts) against the sandbox over loopback:
 * statuses and the headers the client reads pass through unchanged, nothing else does; only the API's
 * GET paths are relayed; an upstream that hangs is 504 within the timeout, one that cannot be reached
 * 502; the key is in no log line and no answer; the manifest is written for the public address.
 */
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import type { AddressInfo } from "net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { MAX_QUERY_BYTES } from "../../src/server/relay";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dist: string;
let serial = 0;
const BUILT_FOR = "https://addin.test.example.ro/";
const PUBLIC = "https://firma.contoso.ro/addin/";

/** A built add-in in miniature: what the server needs of dist/. */
function fakeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-serve-"));
  fs.writeFileSync(path.join(dir, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dir, "functions.json"), '{"functions":[]}');
  fs.writeFileSync(
    path.join(dir, "manifest.xml"),
    `<OfficeApp><SourceLocation DefaultValue="${BUILT_FOR}taskpane.html"/><bt:Url id="JSON.Url" DefaultValue="${BUILT_FOR}functions.json?v=1"/></OfficeApp>`,
  );
  fs.writeFileSync(path.join(dir, "firma-build.json"), JSON.stringify({ addinUrl: BUILT_FOR, serviceUrl: "", version: "0.1.0" }));
  return dir;
}

/** An app over `upstream`, its log lines collected. */
async function app(upstream: string, timeoutMs?: number): Promise<{ app: FastifyInstance; log: string[] }> {
  const log: string[] = [];
  const a = await buildApp({
    dist,
    publicUrl: PUBLIC,
    upstream,
    upstreamTimeoutMs: timeoutMs,
    logger: { level: "info", stream: { write: (line: string) => log.push(line) } } as never,
  });
  return { app: a, log };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dist = fakeDist();
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dist, { recursive: true, force: true });
});
beforeEach(() => {
  sb.config.faults = {};
  sb.config.latencyMs = 0;
});

const CUI = data.sampleCuis(5, 5_150).find((c) => data.company(c))!;
const HEADERS = ["content-type", "x-plan", "x-credits-remaining", "retry-after"];
const picked = (h: Record<string, unknown>) => Object.fromEntries(HEADERS.filter((k) => h[k] !== undefined).map((k) => [k, String(h[k])]));

describe("the relay passes the service's answers through", () => {
  test.each([
    ["200, a profile", (k: string) => k, () => `/v4/firme/${CUI}`],
    ["200, a batch", (k: string) => k, () => `/v4/firme/batch?cui=${CUI},${CUI + 1}`],
    ["401, no key", () => null, () => `/v4/firme/${CUI}`],
    ["403, an unknown key", () => "not-a-key", () => `/v4/firme/${CUI}`],
    ["404, an unknown company", (k: string) => k, () => `/v4/firme/${data.missingCuis(1)[0]}`],
    ["404, an unknown ranking", (k: string) => k, () => `/v4/topuri/nu-exista`],
  ])("%s: status, body and credit headers as the service sent them", async (_label, key, url) => {
    const k = `demo-pro-relay${++serial}`;
    const { app: a } = await app(sb.url);
    const sent = key(k);
    const headers: Record<string, string> = sent === null ? {} : { "x-api-key": sent };
    const via = await a.inject({ method: "GET", url: url(), headers });
    const direct = await fetch(`${sb.url}${url()}`, { headers });
    expect(via.statusCode).toBe(direct.status);
    expect(via.body).toBe(await direct.text());
    const h = picked(via.headers);
    expect(h["content-type"]).toMatch(/application\/json/);
    // the credits left: one call fewer through the relay, as the relay's call was a call
    if (direct.headers.get("x-plan")) expect(h["x-plan"]).toBe(direct.headers.get("x-plan"));
    if (direct.headers.get("x-credits-remaining"))
      expect(Number(h["x-credits-remaining"])).toBe(Number(direct.headers.get("x-credits-remaining")) + 1);
    expect(via.headers["access-control-allow-origin"]).toBeUndefined(); // same origin: no CORS to give
    await a.close();
  });

  test("429 with its Retry-After, and a 5xx with its Retry-After, unchanged", async () => {
    const { app: a } = await app(sb.url);
    const free = `demo-free-relay${++serial}`;
    let last = await a.inject({ method: "GET", url: "/v4/nomenclatoare/judete", headers: { "x-api-key": free } });
    for (let i = 0; i < 10 && last.statusCode === 200; i++)
      last = await a.inject({ method: "GET", url: "/v4/nomenclatoare/judete", headers: { "x-api-key": free } });
    expect(last.statusCode).toBe(429);
    sb.config.retryAfterSeconds = 120;
    const again = await a.inject({ method: "GET", url: "/v4/nomenclatoare/judete", headers: { "x-api-key": free } });
    sb.config.retryAfterSeconds = null;
    expect(again.statusCode).toBe(429);
    expect(again.headers["retry-after"]).toBe("120");
    sb.config.faults = { failNext: 1 };
    const five = await a.inject({ method: "GET", url: `/v4/firme/${CUI}`, headers: { "x-api-key": `demo-pro-relay${++serial}` } });
    expect(five.statusCode).toBeGreaterThanOrEqual(500);
    expect(five.headers["retry-after"]).toBe(five.statusCode === 503 ? "1" : undefined); // the sandbox sends one with a 503 only
    await a.close();
  });
});

describe("only the API's GET paths, nothing else, are relayed", () => {
  test("non-GET, unknown paths and oversized queries are refused without a call; the key is in no log line or answer", async () => {
    const key = `demo-pro-secret${++serial}-9f3a77`;
    const { app: a, log } = await app(sb.url);
    const before = sb.requests.length;
    const h = { "x-api-key": key };
    expect((await a.inject({ method: "POST", url: `/v4/firme/${CUI}`, headers: h })).statusCode).toBe(405);
    expect((await a.inject({ method: "DELETE", url: "/v4/firme/batch", headers: h })).statusCode).toBe(405);
    for (const url of ["/v4/__sandbox/usage", "/v4/firme/abc", "/v4/../__sandbox/reset", "/v4", "/v5/firme/1"]) {
      expect([404, 400]).toContain((await a.inject({ method: "GET", url, headers: h })).statusCode);
    }
    const long = await a.inject({ method: "GET", url: `/v4/firme/batch?cui=${"1,".repeat(MAX_QUERY_BYTES)}`, headers: h });
    expect(long.statusCode).toBe(414);
    expect(JSON.parse(long.body)).toMatchObject({ error: { code: "query_too_long" } });
    expect(sb.requests.length).toBe(before); // nothing reached the service
    // a relayed call, then: the key is in no log line and in no answer
    const ok = await a.inject({ method: "GET", url: `/v4/firme/${CUI}`, headers: h });
    expect(ok.statusCode).toBe(200);
    expect(log.length).toBeGreaterThan(5);
    expect(log.join("\n")).not.toContain(key);
    expect(JSON.stringify(ok.headers) + ok.body).not.toContain(key);
    await a.close();
  });

  test("hop-by-hop headers, cookies and the rest stay behind, both ways", async () => {
    let seen: http.IncomingHttpHeaders = {};
    const echo = http.createServer((req, res) => {
      seen = req.headers;
      res.writeHead(200, {
        "content-type": "application/json",
        "set-cookie": "s=1",
        connection: "close",
        "x-plan": "pro",
        "x-internal": "no",
      });
      res.end("[]");
    });
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
    const { app: a } = await app(`http://127.0.0.1:${(echo.address() as AddressInfo).port}`);
    const r = await a.inject({
      method: "GET",
      url: "/v4/nomenclatoare/judete",
      headers: { "x-api-key": "k1", cookie: "a=b", authorization: "Bearer x", "x-forwarded-for": "10.0.0.9", te: "trailers" },
    });
    expect(r.statusCode).toBe(200);
    expect(seen["x-api-key"]).toBe("k1");
    for (const h of ["cookie", "authorization", "x-forwarded-for", "te"]) expect(seen[h]).toBeUndefined();
    expect(r.headers["set-cookie"]).toBeUndefined();
    expect(r.headers["x-internal"]).toBeUndefined();
    expect(r.headers["x-plan"]).toBe("pro");
    await a.close();
    await new Promise((res) => echo.close(res));
  });
});

describe("an upstream that fails", () => {
  test("one that hangs gives 504 within the timeout; one that cannot be reached gives 502; both with a JSON error the client reads", async () => {
    const hang = http.createServer(() => undefined); // never answers
    await new Promise<void>((r) => hang.listen(0, "127.0.0.1", r));
    const port = (hang.address() as AddressInfo).port;
    const { app: a } = await app(`http://127.0.0.1:${port}`, 400);
    const t0 = Date.now();
    const r = await a.inject({ method: "GET", url: "/v4/nomenclatoare/judete", headers: { "x-api-key": "k" } });
    expect(r.statusCode).toBe(504);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: "upstream_timeout" } });
    await a.close();
    hang.closeAllConnections();
    await new Promise((res) => hang.close(res));
    const { app: b } = await app(`http://127.0.0.1:${port}`); // nothing listens there any more
    const r2 = await b.inject({ method: "GET", url: "/v4/nomenclatoare/judete", headers: { "x-api-key": "k" } });
    expect(r2.statusCode).toBe(502);
    expect(JSON.parse(r2.body)).toMatchObject({ error: { code: "upstream_unreachable" } });
    await b.close();
  });

  test("an answer that began and then failed says how: broken off, too large, or not decodable", async () => {
    let n = 0; // the three calls in order: broken off, too large, not decodable
    const svc = http.createServer((_q, s) => {
      n++;
      if (n === 1) {
        s.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        s.write('{"cui": 1');
        setTimeout(() => s.destroy(), 20);
      } else if (n === 2) {
        s.writeHead(200, { "content-type": "application/json", "content-length": String(40 * 2 ** 20) });
        s.write("[");
      } else {
        s.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        s.end("not gzip at all");
      }
    });
    await new Promise<void>((r) => svc.listen(0, "127.0.0.1", r));
    const { app: a } = await app(`http://127.0.0.1:${(svc.address() as AddressInfo).port}`);
    const code = async () => {
      const r = await a.inject({ method: "GET", url: "/v4/nomenclatoare/judete", headers: { "x-api-key": "k" } });
      return [r.statusCode, JSON.parse(r.body).error.code];
    };
    expect(await code()).toEqual([502, "upstream_broken"]);
    expect(await code()).toEqual([502, "upstream_too_large"]);
    expect(await code()).toEqual([502, "upstream_shape"]);
    await a.close();
    svc.closeAllConnections();
    await new Promise((res) => svc.close(res));
  });
});

describe("the pages", () => {
  test("the manifest is written for the public address; the build's own file is not served; /healthz answers", async () => {
    const { app: a } = await app(sb.url);
    const m = await a.inject({ method: "GET", url: "/manifest.xml" });
    expect(m.statusCode).toBe(200);
    expect(m.headers["content-type"]).toMatch(/xml/);
    expect(m.body).toContain(`${PUBLIC}taskpane.html`);
    expect(m.body).toContain(`${PUBLIC}functions.json?v=1`);
    expect(m.body).not.toContain(BUILT_FOR);
    expect((await a.inject({ method: "GET", url: "/firma-build.json" })).statusCode).toBe(404);
    const page = await a.inject({ method: "GET", url: "/taskpane.html" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(JSON.parse((await a.inject({ method: "GET", url: "/healthz" })).body)).toEqual({ ok: true, version: "0.1.0" });
    await a.close();
  });
});
