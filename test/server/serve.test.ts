/**
 * `firma serve` as a deployer starts it (src/server/main.ts): on a free loopback port, over HTTP or
 * with a certificate, the sandbox in the same process or an upstream; each start-up problem is one
 * clear line and exit 1 with nothing left listening; a stop lets the calls in flight finish.
 */
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import { execFileSync } from "child_process";
import { main, serve, type ServeIo } from "../../src/server/main";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dist: string;
const BUILT_FOR = "https://addin.test.example.ro/";

function io(): ServeIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env: { LANG: "en_US.UTF-8" },
    startSandbox: () => startSandbox({ port: 0 }),
  };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dist = fs.mkdtempSync(path.join(os.tmpdir(), "firma-serve-"));
  fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dist, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${BUILT_FOR}taskpane.html"/></OfficeApp>`);
  fs.writeFileSync(path.join(dist, "firma-build.json"), JSON.stringify({ addinUrl: BUILT_FOR, serviceUrl: "", version: "0.1.0" }));
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const base = () => ["--host", "127.0.0.1", "--port", "0", "--dist", dist];
const CUI = data.sampleCuis(5, 5_250).find((c) => data.company(c))!;

describe("firma serve starts as a deployer starts it", () => {
  test("--http with --upstream: the page, the manifest for --public-url and the relay answer; it says where", async () => {
    const o = io();
    const s = await serve([...base(), "--http", "--upstream", sb.url, "--public-url", "https://firma.contoso.ro/"], o);
    try {
      expect(o.err.join("")).toMatch(
        /^FIRMA serves the add-in at http:\/\/127\.0\.0\.1:\d+\/\. The manifest: https:\/\/firma\.contoso\.ro\/manifest\.xml/,
      );
      expect((await fetch(`${s.url}taskpane.html`)).status).toBe(200);
      expect(await (await fetch(`${s.url}manifest.xml`)).text()).toContain("https://firma.contoso.ro/taskpane.html");
      const r = await fetch(`${s.url}v4/firme/${CUI}`, { headers: { "X-API-Key": "demo-pro-serve1" } });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { denumire?: string; data?: { denumire?: string } }).denumire ?? "").toBeDefined();
      // one JSON line per request, never the key
      expect(o.out.join("")).toMatch(/"url":"\/v4\/firme\/\d+"/);
      expect(o.out.join("")).not.toContain("demo-pro-serve1");
    } finally {
      await s.close();
    }
  });

  test("--sandbox starts the sandbox in the same process and relays to it", async () => {
    const o = io();
    const s = await serve([...base(), "--http", "--sandbox"], o);
    try {
      expect(o.err.join("")).toMatch(/The \/v4 calls go to the sandbox \(http:\/\/127\.0\.0\.1:\d+\)/);
      const r = await fetch(`${s.url}v4/nomenclatoare/judete`, { headers: { "X-API-Key": "demo-pro-serve2" } });
      expect(r.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test("HTTPS with --tls-cert and --tls-key", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-tls-"));
    try {
      const key = path.join(dir, "key.pem");
      const cert = path.join(dir, "cert.pem");
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost"],
        { stdio: "ignore" },
      );
      const o = io();
      const s = await serve([...base(), "--tls-cert", cert, "--tls-key", key, "--upstream", sb.url], o);
      try {
        expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
        const port = Number(new URL(s.url).port);
        const ok = await new Promise<boolean>((done) => {
          const sock = require("tls").connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
            done(sock.getPeerCertificate()?.subject?.CN === "localhost");
            sock.end();
          });
          sock.on("error", () => done(false));
        });
        expect(ok).toBe(true);
      } finally {
        await s.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a stop lets the calls in flight finish", async () => {
    const o = io();
    const s = await serve([...base(), "--http", "--upstream", sb.url], o);
    sb.config.latencyMs = 600;
    try {
      const inFlight = fetch(`${s.url}v4/firme/${CUI}`, { headers: { "X-API-Key": "demo-pro-serve3" } });
      // The call has reached the service (which holds it 600 ms): it is in flight.
      while (!sb.requests.some((r) => r.key === "demo-pro-serve3")) await new Promise((r) => setTimeout(r, 5));
      const closed = s.close();
      expect((await inFlight).status).toBe(200);
      await closed;
      await expect(fetch(`${s.url}healthz`)).rejects.toThrow();
    } finally {
      sb.config.latencyMs = 0;
    }
  });
});

describe("start-up problems: one clear line each, exit 1, nothing left listening", () => {
  const run = async (args: string[]) => {
    const o = io();
    const code = await main(args, o);
    return { code, err: o.err.join("") };
  };

  test("no built add-in", async () => {
    const r = await run(["--dist", path.join(os.tmpdir(), "no-such-dist"), "--http", "--upstream", sb.url]);
    expect(r).toEqual({
      code: 1,
      err: expect.stringMatching(
        /^firma serve: there is no built add-in in .*no-such-dist: first run FIRMA_ADDIN_URL=https:\/\/… npm run build/,
      ),
    });
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  test("a certificate that cannot be read", async () => {
    const r = await run([...base(), "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem", "--upstream", sb.url]);
    expect(r).toEqual({ code: 1, err: "firma serve: the file /nonexistent/cert.pem cannot be read (ENOENT).\n" });
  });

  test("a port in use", async () => {
    const blocker = net.createServer();
    await new Promise<void>((res) => blocker.listen(0, "127.0.0.1", res));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await run(["--host", "127.0.0.1", "--port", String(port), "--dist", dist, "--http", "--upstream", sb.url]);
      expect(r).toEqual({ code: 1, err: `firma serve: port ${port} on 127.0.0.1 is already in use; choose another with --port.\n` });
    } finally {
      await new Promise((res) => blocker.close(res));
    }
  });

  test("an upstream that cannot be reached at start: no credit spent, nothing listening", async () => {
    const closed = net.createServer();
    await new Promise<void>((res) => closed.listen(0, "127.0.0.1", res));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((res) => closed.close(res));
    const r = await run([...base(), "--http", "--upstream", `http://127.0.0.1:${port}`]);
    expect(r).toEqual({
      code: 1,
      err: `firma serve: the service http://127.0.0.1:${port} cannot be reached (ECONNREFUSED); check the address and the network.\n`,
    });
  });

  test("a bad upstream, a bad port, a lone --tls-cert, a public address that is not https", async () => {
    expect(await run([...base(), "--http", "--upstream", "ftp://x"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/the service address ftp:\/\/x is not accepted/),
    });
    expect(await run([...base(), "--http", "--upstream", sb.url, "--port", "99999"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/the port “99999” is not a number/),
    });
    expect(await run([...base(), "--tls-cert", "c.pem", "--upstream", sb.url])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/--tls-cert and --tls-key go together/),
    });
    expect(await run([...base(), "--http", "--upstream", sb.url, "--public-url", "http://firma.contoso.ro/"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/the public address http:\/\/firma\.contoso\.ro\/ is not an https address/),
    });
  });

  test("in Romanian by default", async () => {
    const o = io();
    o.env = {};
    expect(await main(["--dist", "/nu-exista", "--http", "--upstream", sb.url], o)).toBe(1);
    expect(o.err.join("")).toMatch(/^firma serve: nu există un add-in construit în \/nu-exista/);
  });

  test("no upstream: the add-in is served, it says so, and the relay answers 502 naming what to do", async () => {
    const o = io();
    const s = await serve([...base(), "--http"], o);
    try {
      expect(o.err.join("")).toMatch(/^warning: no data service is configured, so the \/v4 calls get 502 until you start with --upstream/);
      expect((await fetch(`${s.url}taskpane.html`)).status).toBe(200);
      const r = await fetch(`${s.url}v4/nomenclatoare/judete`, { headers: { "X-API-Key": "k" } });
      expect(r.status).toBe(502);
      expect(await r.json()).toMatchObject({ error: { code: "upstream_not_configured" } });
    } finally {
      await s.close();
    }
  });

  test("plain HTTP on an address other than loopback is warned about loudly", async () => {
    const o = io();
    const s = await serve(["--host", "0.0.0.0", "--port", "0", "--dist", dist, "--http", "--upstream", sb.url], o);
    await s.close();
    expect(o.err.join("")).toMatch(
      /^WARNING: plain HTTP on 0\.0\.0\.0, which is not this computer's own address: API keys travel unencrypted/,
    );
  });
});
