/**
 * `firma serve` towards the service: the deadline is the service's time, not this server's thread's
 * (src/api/service-timer.ts, as the client's in test/api/transport.test.ts). A service in another
 * process answers in 30 ms while this thread stays busy for 800 ms (a server answering other people,
 * writing its store), with a 500 ms timeout (470 ms for the other process to answer on a loaded machine). Before, firm/upstream.ts and relay.ts used
 * AbortSignal.timeout, which counted the busy time: the answer was thrown away as a timeout, the firm
 * was charged for it, and the person's retry charged it again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { upstream, CallFailure } from "../../src/server/firm/upstream";

let server: ChildProcess;
let url = "";
let dist = "";
/** What the service answers, after `?ms=` milliseconds (30 by default). */
const BODY = { cui: 14399840, denumire: "DANTE INTERNATIONAL SA" };

beforeAll(async () => {
  const code = `require("http").createServer((q, s) => { const ms = Number(new URL(q.url, "http://x").searchParams.get("ms") ?? 30); setTimeout(() => { s.setHeader("content-type", "application/json"); s.end(${JSON.stringify(JSON.stringify(BODY))}); }, ms); }).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`;
  server = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => server.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  url = `http://127.0.0.1:${port}`;
  await fetch(`${url}/v4/firme/14399840?ms=0`).then((r) => r.text()); // fetch loaded, connection known
  dist = fs.mkdtempSync(path.join(os.tmpdir(), "firma-busy-"));
  fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dist, "functions.json"), '{"functions":[]}');
  fs.writeFileSync(
    path.join(dist, "manifest.xml"),
    `<OfficeApp><SourceLocation DefaultValue="https://a.example/taskpane.html"/></OfficeApp>`,
  );
  fs.writeFileSync(path.join(dist, "firma-build.json"), JSON.stringify({ addinUrl: "https://a.example/", serviceUrl: "", version: "0" }));
});
afterAll(() => {
  server.kill();
  fs.rmSync(dist, { recursive: true, force: true });
});

const busy = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

describe("the firm's upstream (custody mode)", () => {
  const call = upstream({ base: () => url, key: "firm-key-busy", timeoutMs: 500 });

  test("busy in the task that started the call: the answer is used, not a timeout", async () => {
    const answer = call("/v4/firme/14399840");
    busy(800);
    await expect(answer).resolves.toMatchObject({ answer: { status: 200, body: BODY }, charged: true });
  });

  test("busy later, past the deadline: the answer that waited is read before the timer aborts", async () => {
    const answer = call("/v4/firme/14399840");
    await new Promise((r) => setTimeout(r, 5)); // the timer is armed
    await new Promise((r) => setImmediate(r));
    busy(800);
    await expect(answer).resolves.toMatchObject({ answer: { status: 200, body: BODY } });
  });

  test("a service slower than the timeout still times out: 504, possibly charged", async () => {
    const e = await call("/v4/firme/14399840?ms=2000").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CallFailure);
    expect(e).toMatchObject({ status: 504, code: "upstream_timeout", charged: true });
  });
});

describe("the relay (the add-in's calls with its own key)", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ dist, publicUrl: "https://firma.contoso.ro/", upstream: url, upstreamTimeoutMs: 500, logger: false } as never);
  });
  afterAll(() => app.close());

  test("busy while the service answers, past the deadline: the answer is passed on", async () => {
    const r = app.inject({ method: "GET", url: "/v4/firme/14399840", headers: { "x-api-key": "k" } });
    await new Promise((res) => setTimeout(res, 10)); // the handler has sent its request, the timer is armed
    await new Promise((res) => setImmediate(res));
    busy(800);
    const res = await r;
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual(BODY);
  });

  test("a service slower than the timeout still gives 504", async () => {
    const res = await app.inject({ method: "GET", url: "/v4/firme/14399840?ms=2000", headers: { "x-api-key": "k" } });
    expect(res.statusCode).toBe(504);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: "upstream_timeout" } });
  });
});
