/**
 * `firma serve` over TLS on loopback, with a certificate made here: HTTP/2 for a client that offers it,
 * HTTP/1.1 for one that does not (ALPN), and the protections of the HTTP/1.1 server held over HTTP/2
 * too — connections that send nothing or a byte at a time are cut off, a request that never ends is
 * reset, an oversized header block, body or query is refused before the database is asked, the
 * per-person limit counts requests that share one connection. Then the upstream governor against the
 * sandbox playing a service that bears 12 calls at once (busyAbove): it halves on the service's 503,
 * climbs back, never passes its ceiling, and every person is answered at the API's minimum of credits,
 * with no 429 from the service.
 */
import * as fs from "fs";
import * as http2 from "http2";
import * as https from "https";
import * as os from "os";
import * as path from "path";
import * as tls from "tls";
import type { AddressInfo } from "net";
import type { FastifyInstance } from "fastify";
import { serve } from "../../src/server/main";
import { buildApp, closeIdleConnections, type ServerLimits } from "../../src/server/app";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { fakeDist } from "../../bench/load";
import { selfSignedCertificate, type TestCertificate } from "../support/tls";
import { countingStore } from "../support/firm-server";

jest.setTimeout(60_000);

let sb: Sandbox;
let cert: TestCertificate;
let dir: string;
let dist: string;
let serial = 0;
const apps: FastifyInstance[] = [];
const stores: FirmStore[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  cert = selfSignedCertificate();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-h2-"));
  dist = fakeDist(dir);
});
afterEach(async () => {
  sb.config = { ...sb.config, latencyMs: 0, faults: {} };
  for (const a of apps.splice(0)) {
    const idle = setInterval(() => closeIdleConnections(a), 50);
    await a.close();
    clearInterval(idle);
  }
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
});
afterAll(async () => {
  await sb.close();
  cert.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  headers: http2.IncomingHttpHeaders;
}

/** One HTTP/2 request on `session`; a stream reset (a refusal of the HTTP/2 layer) as status 0 and its code. */
function h2get(
  session: http2.ClientHttp2Session,
  p: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<Answer> {
  return new Promise((resolve) => {
    const s = session.request({ ":path": p, ":method": method, ...headers });
    let text = "";
    let got: http2.IncomingHttpHeaders = {};
    s.on("response", (h) => (got = h));
    s.setEncoding("utf8");
    s.on("data", (d) => (text += d));
    s.on("end", () => resolve({ status: Number(got[":status"] ?? 0), body: text, headers: got }));
    s.on("error", (e) => resolve({ status: 0, body: String((e as Error).message), headers: got }));
    if (body !== undefined) s.end(body);
    else s.end();
  });
}

/** One HTTP/1.1 request over TLS (no ALPN offer of h2). */
function h1get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; version: string; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false, headers, agent: false }, (r) => {
        let body = "";
        r.setEncoding("utf8");
        r.on("data", (d) => (body += d));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, version: r.httpVersion, body }));
      })
      .on("error", reject);
  });
}

const connect = (url: string) => http2.connect(url, { rejectUnauthorized: false });

/** A custody server over TLS (buildApp, as `firma serve` builds it), its store's calls counted by name. */
async function custodyServer(
  o: { limits?: ServerLimits; rateLimit?: { max: number; windowMs: number } | null; upstreamConcurrency?: number } = {},
) {
  const key = `demo-business-h2-${++serial}`;
  const real = await openFirmStore(path.join(dir, `firm${serial}.sqlite`));
  stores.push(real);
  const { store, asked } = countingStore(real);
  const app = await buildApp({
    dist,
    publicUrl: "https://firm.test.example.ro/",
    upstream: sb.url,
    https: { key: cert.key, cert: cert.cert },
    limits: o.limits,
    upstreamConcurrency: o.upstreamConcurrency,
    custody: { store, key, maxCreditsPerDay: null, rateLimit: o.rateLimit, lang: "en" },
  });
  apps.push(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  asked.clear();
  return {
    url: `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    key,
    asked,
    async token(name: string, budget: number) {
      const t = newToken();
      await real.addUser(name, budget, hashToken(t), Date.now());
      return t;
    },
  };
}

describe("firma serve with a certificate speaks HTTP/2, and HTTP/1.1 to older clients", () => {
  test("an HTTP/2 client and an HTTP/1.1 client both get the page and the relayed answers", async () => {
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: { LANG: "en_US.UTF-8" } };
    const s = await serve(
      ["--host", "127.0.0.1", "--port", "0", "--dist", dist, "--tls-cert", cert.certFile, "--tls-key", cert.keyFile, "--upstream", sb.url],
      quiet,
    );
    const session = connect(s.url);
    try {
      const cui = data.sampleCuis(1, 70_000)[0];
      const [page, answer] = await Promise.all([
        h2get(session, "/taskpane.html"),
        h2get(session, `/v4/firme/${cui}`, { "x-api-key": "demo-pro-h2-relay" }),
      ]);
      expect(session.alpnProtocol).toBe("h2");
      expect(page.status).toBe(200);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).denumire).toBe(data.company(cui)!.denumire);
      expect(answer.headers["x-plan"]).toBe("pro");
      const old = await h1get(`${s.url}v4/firme/${cui}`, { "X-API-Key": "demo-pro-h2-relay" });
      expect(old).toMatchObject({ status: 200, version: "1.1" });
      expect(JSON.parse(old.body).denumire).toBe(data.company(cui)!.denumire);
      expect(sb.usage("demo-pro-h2-relay").month).toBe(2);
    } finally {
      session.close();
      await s.close();
    }
  });

  test("plain HTTP stays HTTP/1.1", async () => {
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
    const s = await serve(["--host", "127.0.0.1", "--port", "0", "--dist", dist, "--http", "--upstream", sb.url], quiet);
    try {
      // an HTTP/2 client without TLS (h2c) gets no answer; an HTTP/1.1 one does
      const session = http2.connect(s.url);
      session.on("error", () => undefined);
      const h2c = await h2get(session, "/healthz");
      session.destroy();
      expect(h2c.status).toBe(0);
      expect((await fetch(`${s.url}healthz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe("the slow-client and size protections over HTTP/2", () => {
  test("silent connections, a preface or a header a byte at a time, and a request that never ends are cut off; the others are answered", async () => {
    const s = await custodyServer({ limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, checkIntervalMs: 200 } });
    const t = await s.token("ana", 10);
    const { port } = new URL(s.url);
    const started = performance.now();
    const closed: number[] = [];
    const sockets: tls.TLSSocket[] = [];
    const timers: NodeJS.Timeout[] = [];
    for (let i = 0; i < 30; i++) {
      // h2 and http/1.1 in turn: nothing at all, or the first bytes one every 100 ms
      const alpn = i % 2 === 0 ? "h2" : "http/1.1";
      const sock = tls.connect({ host: "127.0.0.1", port: Number(port), rejectUnauthorized: false, ALPNProtocols: [alpn] });
      sock.on("error", () => undefined);
      sock.resume();
      sock.on("close", () => closed.push(performance.now() - started));
      sockets.push(sock);
      if (i % 4 >= 2) {
        const text =
          alpn === "h2"
            ? "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\0".repeat(200)
            : `GET /firm/me HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}`;
        let k = 0;
        sock.once("secureConnect", () => timers.push(setInterval(() => k < text.length && !sock.destroyed && sock.write(text[k++]), 100)));
      }
    }
    // an HTTP/2 request whose body never ends: reset after the request's time (2 s)
    const slowSession = connect(s.url);
    const unfinished = slowSession.request({
      ":path": "/v4/firme/batch",
      ":method": "POST",
      "x-api-key": t,
      "content-type": "application/json",
    });
    unfinished.write("{");
    const reset = new Promise<number>((resolve) => {
      unfinished.on("error", () => undefined);
      unfinished.on("close", () => resolve(performance.now() - started));
    });
    await new Promise((r) => setTimeout(r, 300));
    const session = connect(s.url);
    const t0 = performance.now();
    const me = await h2get(session, "/firm/me", { "x-api-key": t });
    expect(me.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1000);
    // a request on a connection that has answered before is no silent connection: kept
    await new Promise((r) => setTimeout(r, 1500));
    expect((await h2get(session, "/firm/me", { "x-api-key": t })).status).toBe(200);
    for (let i = 0; i < 200 && closed.length < sockets.length; i++) await new Promise((r) => setTimeout(r, 100));
    for (const x of timers) clearInterval(x);
    const open = sockets.filter((x) => !x.destroyed).length;
    for (const x of sockets) x.destroy();
    expect(open).toBe(0);
    const sorted = [...closed].sort((a, b) => a - b);
    process.stderr.write(
      `HTTP/2 and HTTP/1.1 slow clients closed after ${sorted[0].toFixed(0)}–${sorted[sorted.length - 1].toFixed(0)} ms\n`,
    );
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(2500);
    expect(sorted[sorted.length - 1]).toBeLessThan(30_000);
    const resetAt = await reset;
    expect(resetAt).toBeGreaterThan(1900);
    expect(resetAt).toBeLessThan(10_000);
    slowSession.destroy();
    session.close();
    // only the two real requests asked who the token is
    expect(s.asked.get("userByTokenHash")).toBe(2);
  });

  test("an oversized header block, body and query are refused before the database or the service is asked", async () => {
    const s = await custodyServer();
    const t = await s.token("ana", 10);
    const calls = sb.usage(s.key).calls;
    const session = connect(s.url);
    try {
      const huge = await h2get(session, "/v4/firme/14399840", { "x-api-key": t, "x-pad": "a".repeat(20_000) });
      // sent before the server's SETTINGS reached the client (which would refuse it itself): the server's 431
      expect(huge.status).toBe(431);
      expect(JSON.parse(huge.body).error.code).toBe("headers_too_large");
      const body = await h2get(
        session,
        "/v4/firme/batch",
        { "x-api-key": t, "content-type": "application/json" },
        "POST",
        JSON.stringify({ pad: "a".repeat(2000) }),
      );
      expect(body.status).toBe(413);
      expect(JSON.parse(body.body).error.code).toBe("body_too_large");
      const query = await h2get(session, `/v4/firme/batch?cui=${"1".repeat(5000)}`, { "x-api-key": t });
      expect(query.status).toBe(414);
      // the session is still good for a proper request
      expect((await h2get(session, "/healthz")).status).toBe(200);
      expect(s.asked.get("userByTokenHash") ?? 0).toBe(0);
      expect(sb.usage(s.key).calls).toBe(calls);
    } finally {
      session.close();
    }
  });

  test("the per-person limit counts the requests that share one HTTP/2 connection", async () => {
    const s = await custodyServer({ rateLimit: { max: 5, windowMs: 10_000 } });
    const t = await s.token("ana", 10);
    const session = connect(s.url);
    try {
      const all = await Promise.all(Array.from({ length: 12 }, () => h2get(session, "/firm/me", { "x-api-key": t })));
      const statuses = all.map((a) => a.status).sort();
      expect(statuses.filter((x) => x === 200)).toHaveLength(5);
      expect(statuses.filter((x) => x === 429)).toHaveLength(7);
      const limited = all.find((a) => a.status === 429)!;
      expect(JSON.parse(limited.body).error.code).toBe("rate_limited");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    } finally {
      session.close();
    }
  });
});

describe("the upstream governor against a service that bears 12 calls at once", () => {
  test("it halves on the service's 503, climbs back, never passes its ceiling; every answer comes, at the minimum of credits, no 429", async () => {
    const s = await custodyServer({ upstreamConcurrency: 24, rateLimit: null });
    // the service's own time well above the time this process takes to send 16 calls (the sandbox runs
    // in it): on a busy machine, 50 ms let the calls arrive one after the other, never 13 at once
    sb.config = { ...sb.config, latencyMs: 250, faults: { busyAbove: 12 } };
    sb.reset();
    const people = await Promise.all(["ana", "ion", "eva"].map((n) => s.token(n, 1000)));
    const cuis = data.sampleCuis(6000, 700_000);
    const session = connect(s.url);
    const metric = async (name: string) => Number(new RegExp(`^${name} (\\d+)`, "m").exec((await h2get(session, "/metrics")).body)?.[1]);
    const limits: number[] = [];
    const watch = setInterval(() => void metric("firma_upstream_concurrency_limit").then((n) => limits.push(n)), 50);
    try {
      // three people, 60 batches of 100 over one HTTP/2 connection each, all asked at once
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          h2get(session, `/v4/firme/batch?cui=${cuis.slice(i * 100, i * 100 + 100).join(",")}`, { "x-api-key": people[i % 3] }),
        ),
      );
      clearInterval(watch);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const names = new Map(
        answers.flatMap((a) => (JSON.parse(a.body) as { cui: number; denumire: string }[]).map((x) => [x.cui, x.denumire])),
      );
      expect(cuis.map((c) => names.get(c))).toEqual(cuis.map((c) => data.company(c)!.denumire));
      const log = sb.requests.filter((r) => r.key === s.key);
      const busy = log.filter((r) => r.fault === "busy").length;
      process.stderr.write(
        `governor: ${log.length} calls, ${busy} refused busy, peak ${sb.concurrency.peak} at once, limits seen ${[...new Set(limits)].join(" ")}\n`,
      );
      // it met the service's limit, halved, and still paid each batch once
      expect(busy).toBeGreaterThan(0);
      expect(await metric("firma_upstream_overloads_total")).toBe(busy);
      expect(Math.min(...limits)).toBeLessThan(16);
      expect(sb.usage(s.key).month).toBe(60);
      expect(log.filter((r) => r.status === 429)).toEqual([]);
      // never past its ceiling
      expect(sb.concurrency.peak).toBeLessThanOrEqual(24);
      expect(Math.max(...limits)).toBeLessThanOrEqual(24);
    } finally {
      clearInterval(watch);
      session.close();
    }
  });

  test("a service that bears it all: from 16 at once up to the ceiling, no refusal", async () => {
    const s = await custodyServer({ upstreamConcurrency: 40, rateLimit: null });
    // the service's own time well above the time this process takes to make 40 answers (the sandbox
    // runs in it): answers that queue here would read as a slow service, and hold the limit
    sb.config = { ...sb.config, latencyMs: 250, faults: {} };
    sb.reset();
    const t = await s.token("ana", 1000);
    const cuis = data.sampleCuis(8000, 720_000);
    const session = connect(s.url);
    try {
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          h2get(session, `/v4/firme/batch?cui=${cuis.slice(i * 100, i * 100 + 100).join(",")}`, { "x-api-key": t }),
        ),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(sb.usage(s.key).month).toBe(80);
      process.stderr.write(`governor, no limit: peak ${sb.concurrency.peak} at once of a ceiling of 40\n`);
      expect(sb.concurrency.peak).toBeGreaterThan(16);
      expect(sb.concurrency.peak).toBeLessThanOrEqual(40);
    } finally {
      session.close();
    }
  });
});
