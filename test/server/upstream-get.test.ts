/**
 * `firma serve`'s GET to the service (src/server/upstream-get.ts), against servers on loopback: a kept
 * connection serves the next call; a kept connection the service closed is not a failed (or doubled) call;
 * what broke, and where, is told apart (the relay's 502s and custody's "charged or not" read it).
 */
import * as http from "node:http";
import * as net from "node:net";
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

test("a kept connection the service closed as the next call took it: that call is answered on a new one, asked once", async () => {
  // A service that answers the first request of each connection and drops (RST) the connection when a
  // second request comes on it, unread: what a service does when it closes an idle connection as the
  // call arrives.
  let answered = 0;
  let connections = 0;
  const s = net.createServer((sock) => {
    connections++;
    let requests = 0;
    let buf = "";
    sock.on("data", (d) => {
      buf += d.toString("latin1");
      if (!buf.includes("\r\n\r\n")) return;
      buf = "";
      if (++requests > 1) return sock.resetAndDestroy();
      answered++;
      sock.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: keep-alive\r\n\r\n{"n":${String(answered).padStart(6, " ")}}`,
      );
    });
    sock.on("error", () => undefined);
  });
  const url = await listen(s);
  const get = upstreamGet({ maxBytes: 1_000 });
  const first = await get(`${url}/v4/firme/1`, {}, signal());
  expect(JSON.parse(first.body.toString())).toEqual({ n: 1 });
  const second = await get(`${url}/v4/firme/2`, {}, signal());
  expect(JSON.parse(second.body.toString())).toEqual({ n: 2 });
  expect(answered).toBe(2);
  expect(connections).toBe(2);
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
