/**
 * `firma serve --key-file F` (or FIRMA_UPSTREAM_KEY) as a deployer starts it (src/server/main.ts,
 * firm/custody-setup.ts): custody mode on, the database opened and migrated before anything listens;
 * each start-up problem — a key file that is missing, empty or not one line, a bad --max-credits-per-day,
 * custody options without a key, an unknown database scheme, no upstream — one line and exit 1, never
 * the key, nothing left listening.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { main, serve, type ServeIo } from "../../src/server/main";
import { openFirmStore } from "../../src/server/firm/open-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dir: string;
let dist: string;
const BUILT_FOR = "https://addin.test.example.ro/";
const KEY = "demo-business-serve-custody-s3cr3t";

function io(env: Record<string, string> = {}): ServeIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env: { LANG: "en_US.UTF-8", ...env },
  };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-custody-serve-"));
  dist = path.join(dir, "dist");
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dist, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${BUILT_FOR}taskpane.html"/></OfficeApp>`);
  fs.writeFileSync(path.join(dist, "firma-build.json"), JSON.stringify({ addinUrl: BUILT_FOR, serviceUrl: "", version: "0.1.0" }));
  fs.writeFileSync(path.join(dir, "key"), `${KEY}\n`);
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const base = () => ["--host", "127.0.0.1", "--port", "0", "--dist", dist, "--http", "--upstream", sb.url];
const CUI = data.sampleCuis(5, 7_250).find((c) => data.company(c))!;

describe("custody mode starts", () => {
  test.each([
    ["--key-file", (db: string) => ({ argv: ["--key-file", path.join(dir, "key"), "--database", db], env: {} })],
    ["FIRMA_UPSTREAM_KEY and DATABASE_URL", (db: string) => ({ argv: [], env: { FIRMA_UPSTREAM_KEY: KEY, DATABASE_URL: db } })],
  ])("with %s: the firm's database is opened, people call with tokens, the key is in no line", async (_label, how) => {
    const db = path.join(dir, `firm-${Math.random().toString(36).slice(2)}.sqlite`);
    const { argv, env } = how(db);
    const o = io(env);
    const s = await serve([...base(), ...argv], o);
    try {
      expect(o.err.join("")).toContain(
        `Custody mode: the firm's key stays on this server; people use personal tokens (firma users add). Database: ${db}.`,
      );
      const store = await openFirmStore(db);
      const token = newToken();
      await store.addUser("ana", 3, hashToken(token), Date.now());
      await store.close();
      expect((await fetch(`${s.url}v4/firme/${CUI}`, { headers: { "X-API-Key": KEY } })).status).toBe(401);
      const r = await fetch(`${s.url}v4/firme/${CUI}`, { headers: { "X-API-Key": token } });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-credits-limit")).toBe("3");
      expect(sb.usage(KEY).total).toBeGreaterThan(0);
      expect((await fetch(`${s.url}healthz`)).status).toBe(200);
    } finally {
      await s.close();
    }
    for (const line of [...o.out, ...o.err]) expect(line).not.toContain(KEY);
  });
});

describe("the request log in custody mode", () => {
  test.each([
    ["by default: no line per request (the audit trail has each API request)", [] as string[], false],
    ["with --access-log: one line per request, never the token or the key", ["--access-log"], true],
  ])("%s", async (_label, extra, logged) => {
    const db = path.join(dir, `firm-${Math.random().toString(36).slice(2)}.sqlite`);
    const store = await openFirmStore(db);
    const token = newToken();
    await store.addUser("ana", 3, hashToken(token), Date.now());
    await store.close();
    const o = io();
    const s = await serve([...base(), "--key-file", path.join(dir, "key"), "--database", db, ...extra], o);
    try {
      expect((await fetch(`${s.url}v4/firme/${CUI}`, { headers: { "X-API-Key": token } })).status).toBe(200);
      expect((await fetch(`${s.url}v4/firme/${CUI}`, { headers: { "X-API-Key": "not-a-token" } })).status).toBe(401);
    } finally {
      await s.close();
    }
    const out = o.out.join("");
    // each request: its line coming in (method, URL) and its line answered (status, time)
    expect(out.split("\n").filter((l) => l.includes(`"url":"/v4/firme/${CUI}"`))).toHaveLength(logged ? 2 : 0);
    expect(out.split("\n").filter((l) => l.includes('"msg":"request completed"'))).toHaveLength(logged ? 2 : 0);
    if (logged) expect(out).toMatch(/"statusCode":401/);
    for (const text of [out, o.err.join("")]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(KEY);
    }
    const reopened = await openFirmStore(db);
    try {
      expect((await reopened.auditSince(0)).map((a) => [a.user, a.endpoint, a.status])).toEqual([["ana", `/v4/firme/${CUI}`, 200]]);
    } finally {
      await reopened.close();
    }
  });
});

describe("custody mode start-up problems: one line, exit 1, never the key", () => {
  const write = (name: string, text: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    return f;
  };
  test.each([
    [
      "a key file that does not exist",
      () => ["--key-file", path.join(dir, "nope")],
      {},
      /the firm's key file .*nope cannot be read \(ENOENT\)/,
    ],
    ["an empty key file", () => ["--key-file", write("empty", "\n \n")], {}, /holds no API key/],
    ["a key file of two lines", () => ["--key-file", write("two", `${KEY}\nsecond-line`)], {}, /one line of visible characters/],
    ["an empty FIRMA_UPSTREAM_KEY", () => [], { FIRMA_UPSTREAM_KEY: " " }, /FIRMA_UPSTREAM_KEY holds no API key/],
    [
      "a --max-credits-per-day that is not a whole number",
      () => ["--key-file", path.join(dir, "key"), "--max-credits-per-day", "-3"],
      {},
      /--max-credits-per-day "-3" is not a whole number/,
    ],
    ["--database without a key", () => ["--database", path.join(dir, "x.sqlite")], {}, /go with custody mode only/],
    [
      "an unknown database scheme",
      () => ["--key-file", path.join(dir, "key"), "--database", "mysql://u:pw@host/db"],
      {},
      /is not understood/,
    ],
  ])("%s", async (_label, argv, env, message) => {
    const o = io(env as Record<string, string>);
    expect(await main([...base(), ...argv()], o)).toBe(1);
    const text = o.err.join("");
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(text).toMatch(message);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("pw@");
  });

  test("custody mode without an upstream service", async () => {
    const o = io({ FIRMA_UPSTREAM_KEY: KEY });
    expect(await main(["--host", "127.0.0.1", "--port", "0", "--dist", dist, "--http"], o)).toBe(1);
    expect(o.err.join("")).toMatch(/custody mode \(--key-file\) needs the service/);
  });

  test("a database that cannot be opened: one line naming it, nothing listening", async () => {
    const blocker = write("a-file", "not a folder");
    const o = io({ FIRMA_UPSTREAM_KEY: KEY });
    expect(await main([...base(), "--database", path.join(blocker, "firm.sqlite")], o)).toBe(1);
    expect(o.err.join("")).toMatch(/^firma serve: the database .*a-file\/firm\.sqlite cannot be opened/);
  });
});
