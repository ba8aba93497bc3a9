/**
 * `firma serve`'s GET to the service (src/server/upstream-get.ts), against servers on loopback: a kept
 * connection serves the next call; a call that broke is never sent twice (it may have been charged);
 * what broke, and where, is told apart (the relay's 502s and custody's "charged or not" read it).
 */
import * as http from "node:http";
import * as net from "node:net";
import * as zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { GetFailure, upstreamGet } from "../../src/server/upstream-get";

const servers: Array<http.Server | net.Server> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    if (s instanceof http.Server) s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen<S extends http.Server | net.Server>(s: S): Promise<string> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const signal = () => new AbortController().signal;

test("calls one after the other share one kept connection; the answer's status, headers and bytes come through", async () => {
  let connections = 0;
  const seen: http.IncomingHttpHeaders[] = [];
  const s = http.createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(404, { "content-type": "application/json", "x-plan": "pro", "retry-after": "3" });
    res.end('{"error":{"code":"not_found"}}');
  });
  s.on("connection", () => connections++);
  const url = await listen(s);
  const get = upstreamGet({ maxBytes: 1_000 });
  for (let i = 0; i < 5; i++) {
    const a = await get(`${url}/v4/firme/1`, { "x-api-key": "k" }, signal());
    expect(a.status).toBe(404);
    expect(a.header("x-plan")).toBe("pro");
    expect(a.header("retry-after")).toBe("3");
    expect(a.header("x-none")).toBeNull();
    expect(JSON.parse(a.body.toString())).toEqual({ error: { code: "not_found" } });
  }
  expect(connections).toBe(1);
  expect(seen.every((h) => h["x-api-key"] === "k")).toBe(true);
});

test("a kept connection reset before any answer fails the call: never sent again (the service may have read and charged it)", async () => {
  // A service that answers the first request of each connection and, when a second comes on it, reads it
  // and drops (RST) the connection without an answer: it may have charged that call, so it is not sent again.
  let read = 0;
  const s = net.createServer((sock) => {
    let requests = 0;
    let buf = "";
    sock.on("data", (d) => {
      buf += d.toString("latin1");
      if (!buf.includes("\r\n\r\n")) return;
      buf = "";
      read++;
      if (++requests > 1) return sock.resetAndDestroy();
      sock.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}`);
    });
    sock.on("error", () => undefined);
  });
  const url = await listen(s);
  const get = upstreamGet({ maxBytes: 1_000 });
  expect((await get(`${url}/v4/firme/1`, {}, signal())).status).toBe(200);
  await expect(get(`${url}/v4/firme/2`, {}, signal())).rejects.toMatchObject({ code: "ECONNRESET", answered: false });
  expect(read).toBe(2);
});

test("asks for gzip or deflate and says who calls; a compressed answer comes decoded; one that does not decode fails", async () => {
  let seen: http.IncomingHttpHeaders = {};
  const body = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ cui: i, denumire: "FIRMA SRL" })) });
  const s = http.createServer((req, res) => {
    seen = req.headers;
    if (req.url === "/gzip") res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync(body));
    else if (req.url === "/deflate") res.writeHead(200, { "content-encoding": "deflate" }).end(zlib.deflateSync(body));
    else res.writeHead(200, { "content-encoding": "gzip" }).end("not gzip");
  });
  const url = await listen(s);
  const get = upstreamGet({ maxBytes: 100_000 });
  expect((await get(`${url}/gzip`, { "x-api-key": "k" }, signal())).body.toString()).toBe(body);
  expect(seen["accept-encoding"]).toBe("gzip, deflate");
  expect(seen["user-agent"]).toBe("firma-serve");
  expect((await get(`${url}/deflate`, {}, signal())).body.toString()).toBe(body);
  await expect(get(`${url}/broken`, {}, signal())).rejects.toMatchObject({ code: "bad_encoding", answered: true });
  // Decoded larger than allowed: too large, though what came was small.
  await expect(upstreamGet({ maxBytes: 100 })(`${url}/gzip`, {}, signal())).rejects.toMatchObject({ code: "too_large" });
});

test("an answer that takes the connection away (101) ends the call instead of leaving it waiting", async () => {
  const s = net.createServer((sock) => {
    sock.once("data", () => sock.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n"));
    sock.on("error", () => undefined);
  });
  const url = await listen(s);
  await expect(upstreamGet({ maxBytes: 1_000 })(`${url}/v4/firme/1`, {}, signal())).rejects.toBeInstanceOf(GetFailure);
});

test("a service that resets a new connection is not asked again: the failure says no answer began", async () => {
  let requests = 0;
  const s = net.createServer((sock) => {
    sock.on("data", () => {
      requests++;
      sock.resetAndDestroy();
    });
    sock.on("error", () => undefined);
  });
  const url = await listen(s);
  const e = await upstreamGet({ maxBytes: 1_000 })(`${url}/v4/firme/1`, {}, signal()).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(GetFailure);
  expect(e).toMatchObject({ code: "ECONNRESET", answered: false });
  expect(requests).toBe(1);
});

test("an answer larger than allowed ends the call, whether it says its length or not", async () => {
  const s = http.createServer((req, res) => {
    if (req.url === "/said") {
      res.writeHead(200, { "content-length": "5000" });
      res.end("x".repeat(5000));
    } else {
      res.writeHead(200); // chunked: the length is found on the way
      for (let i = 0; i < 10; i++) res.write("y".repeat(500));
      res.end();
    }
  });
  const url = await listen(s);
  const get = upstreamGet({ maxBytes: 1_000 });
  await expect(get(`${url}/said`, {}, signal())).rejects.toMatchObject({ code: "too_large", answered: true });
  await expect(get(`${url}/chunked`, {}, signal())).rejects.toMatchObject({ code: "too_large", answered: true });
});

test("nothing listening, an answer that breaks off, a call aborted: each told apart", async () => {
  const get = upstreamGet({ maxBytes: 10_000 });
  const closed = net.createServer();
  const gone = await listen(closed);
  servers.pop();
  await new Promise((r) => closed.close(r));
  await expect(get(`${gone}/v4/firme/1`, {}, signal())).rejects.toMatchObject({ code: "ECONNREFUSED", answered: false });

  const s = http.createServer((req, res) => {
    if (req.url === "/broken") {
      res.writeHead(200, { "content-length": "100" });
      res.write("{ half");
      setTimeout(() => res.socket?.destroy(), 20);
    } // "/hang": never answers
  });
  const url = await listen(s);
  await expect(get(`${url}/broken`, {}, signal())).rejects.toMatchObject({ answered: true });
  const ac = new AbortController();
  const hang = get(`${url}/hang`, {}, ac.signal);
  setTimeout(() => ac.abort(), 30);
  await expect(hang).rejects.toMatchObject({ code: "aborted", answered: false });
});
