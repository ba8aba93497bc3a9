/**
 * The firm's upstream (custody mode) on a call that fails: what the person is told and whether the call
 * may have cost the firm a credit. A service on loopback answers each path its own way: too large, broken
 * off after its head, a compressed body that does not decode; a closed port is a service that cannot be
 * reached. An answer that began is the service's, so it may have been charged.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { upstream, CallFailure } from "../../src/server/firm/upstream";
import { t } from "../../src/shared/messages/node";

let server: http.Server;
let url = "";
beforeAll(async () => {
  server = http.createServer((q, s) => {
    if (q.url === "/too-large") {
      s.writeHead(200, { "content-type": "application/json", "content-length": String(40 * 2 ** 20) });
      s.write("[");
      return; // the length says enough
    }
    if (q.url === "/broken") {
      s.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      s.write('{"cui": 14399840, "denu');
      setTimeout(() => s.destroy(), 20);
      return;
    }
    if (q.url === "/reset") {
      q.socket.destroy(); // read, and no answer
      return;
    }
    if (q.url === "/bad-gzip") {
      s.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      s.end("not gzip at all");
      return;
    }
    s.end('{"cui": 14399840}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const call = (base: string, path: string) =>
  upstream({ base: () => base, key: "firm-key-failures", timeoutMs: 3000 })(path).then(
    () => null,
    (e: unknown) => e,
  );

test.each([
  ["an answer over 32 MB", "/too-large", "upstream_too_large", "The service's answer is larger than 32 MB"],
  ["an answer broken off after it began", "/broken", "upstream_broken", "The service's answer broke off"],
  ["a compressed answer that does not decode", "/bad-gzip", "upstream_shape", "The service's answer could not be read"],
])("%s: a 502 that says so, possibly charged", async (_what, path, code, said) => {
  const e = await call(url, path);
  expect(e).toBeInstanceOf(CallFailure);
  expect(e).toMatchObject({ status: 502, code, charged: true });
  const { params } = e as CallFailure;
  expect(t("en", `custody.${code.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}` as never, params)).toContain(said);
});

test("a connection reset after the service read the call, before any answer: unreachable, but possibly charged", async () => {
  expect(await call(url, "/reset")).toMatchObject({ status: 502, code: "upstream_unreachable", charged: true });
});

test("a service that cannot be reached: 502 upstream_unreachable, never charged", async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const e = await call(`http://127.0.0.1:${port}`, "/v4/firme/14399840");
  expect(e).toMatchObject({ status: 502, code: "upstream_unreachable", charged: false });
});

test("the Romanian messages say the same", () => {
  expect(t("ro", "custody.upstreamTooLarge", { mb: 32 })).toBe(
    "Răspunsul serviciului depășește 32 MB, mai mult decât acceptă serverul firmei.",
  );
  expect(t("ro", "custody.upstreamBroken")).toMatch(/s-a întrerupt/);
});
