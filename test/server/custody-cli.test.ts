/**
 * `firma refresh` against the firm's custody server, as a person of the firm runs it: her token where
 * the key went (`--key`) and the server's address where the service's went (`--base-url`), nothing
 * else changed. The workbook comes back with the dataset's values; the same workbook refreshed by a
 * colleague on another computer (his token, his own cache) costs the firm nothing upstream. A revoked
 * token, a value that is not a token and a person without budget each end the run with a clear line,
 * no output written and no upstream call.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { AddressInfo } from "net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { bucharestDay } from "../../src/engine/credits/bucharest-time";
import { firma } from "../support/cli";
import { expectDemoValues } from "../support/demo-values";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { buildWorkbook, demoSpec } from "../fixtures/build-workbook";

const BUILT_FOR = "https://addin.test.example.ro/";
const KEY = "demo-business-cli-custody-s3cr3t";

let sb: Sandbox;
let dir: string;
let store: FirmStore;
let app: FastifyInstance;
let server: string;
const log: string[] = [];

async function person(name: string, budget: number): Promise<string> {
  const token = newToken();
  await store.addUser(name, budget, hashToken(token), Date.now());
  return token;
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-custody-cli-"));
  const dist = join(dir, "dist");
  mkdirSync(dist);
  writeFileSync(join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  writeFileSync(join(dist, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${BUILT_FOR}taskpane.html"/></OfficeApp>`);
  writeFileSync(join(dist, "firma-build.json"), JSON.stringify({ addinUrl: BUILT_FOR, serviceUrl: "", version: "0.1.0" }));
  store = await openFirmStore(join(dir, "firm.sqlite"));
  app = await buildApp({
    dist,
    publicUrl: BUILT_FOR,
    upstream: sb.url,
    logger: { level: "info", stream: { write: (line: string) => log.push(line) } } as never,
    custody: { store, key: KEY, maxCreditsPerDay: null },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await store.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
  for (const line of log) expect(line).not.toContain(KEY);
});

const ROWS = 120;
/** Every value of the refreshed sheet, by address. */
const valuesOf = (bytes: Buffer) => {
  const wb = Workbook.open(bytes);
  const out: Record<string, unknown> = {};
  for (let r = 2; r <= ROWS + 1; r++) for (const c of "ABCDEFHIJ") out[`${c}${r}`] = wb.getValue("Firme", `${c}${r}`);
  return out;
};

describe("firma refresh through the firm's server", () => {
  const file = () => join(dir, "portfolio.xlsx");
  const input = buildWorkbook(
    demoSpec({ rows: ROWS, cuis: [...data.sampleCuis(ROWS / 2, 51_000), ...data.missingCuis(2)], history: undefined }),
  );

  test("Ana's token as the key, the server as the address: the dataset's values; Ion's refresh of the same workbook costs 0 upstream credits", async () => {
    writeFileSync(file(), input);
    const ana = await person("ana", 100);
    const ion = await person("ion", 100);
    const a = await firma([
      "refresh",
      file(),
      "--key",
      ana,
      "--base-url",
      server,
      "--cache-dir",
      join(dir, "ana"),
      "--out",
      join(dir, "ana.xlsx"),
    ]);
    expect([a.code, a.err]).toEqual([0, ""]);
    const charged = sb.usage(KEY).total;
    expect(charged).toBeGreaterThan(0);
    const wb = Workbook.open(readFileSync(join(dir, "ana.xlsx")));
    const src = Workbook.open(input);
    expectDemoValues(wb, src, ROWS + 1);

    // Ion, on his own computer: his token, his own (empty) cache, the same workbook.
    const calls = sb.usage(KEY).calls;
    const i = await firma([
      "refresh",
      file(),
      "--key",
      ion,
      "--base-url",
      server,
      "--cache-dir",
      join(dir, "ion"),
      "--out",
      join(dir, "ion.xlsx"),
    ]);
    expect([i.code, i.err]).toEqual([0, ""]);
    expect(sb.usage(KEY).calls).toBe(calls);
    expect(valuesOf(readFileSync(join(dir, "ion.xlsx")))).toEqual(valuesOf(readFileSync(join(dir, "ana.xlsx"))));

    // The firm's books: Ana paid every call, Ion none; his requests were answered from the store.
    const month = bucharestDay(Date.now()).slice(0, 7);
    const users = await store.listUsers(month);
    expect(users.filter((u) => u.name === "ana" || u.name === "ion").map((u) => [u.name, u.spent])).toEqual([
      ["ana", charged],
      ["ion", 0],
    ]);
    const ions = await store.auditSince(0, "ion");
    expect(ions.length).toBeGreaterThan(0);
    expect(ions.every((e) => e.source === "store" && e.credits === 0 && e.status === 200)).toBe(true);
  }, 60_000);

  // What the CLI says is its own reading of the status (403: key refused; 401: key missing; 429: credits
  // spent), as with the service: the server's own sentence (which names the person's budget) is not shown.
  test.each([
    [
      "a revoked token",
      /cheia API a fost refuzată.*--key/,
      async () => {
        const t = await person("plecat", 100);
        await store.revokeUser("plecat", Date.now());
        return t;
      },
    ],
    ["a value that is not a token (the firm's key itself)", /cheia API.*--key/, async () => KEY],
    ["a person whose budget is 0", /credit/, async () => person("zero", 0)],
  ])("%s: the run ends with a clear line, writes nothing, and costs no upstream call", async (_label, said, token) => {
    const other = buildWorkbook(demoSpec({ rows: 20, cuis: data.sampleCuis(10, 52_000), history: false }));
    const f = join(dir, `other-${Math.random().toString(36).slice(2)}.xlsx`);
    writeFileSync(f, other);
    const out = `${f}.out.xlsx`;
    const calls = sb.usage(KEY).calls;
    const r = await firma(["refresh", f, "--key", await token(), "--base-url", server, "--no-cache", "--out", out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/registrul nu a fost scris/);
    expect(r.out).toMatch(said);
    expect(r.out).toMatch(/credite cheltuite: 0/);
    expect(r.err).not.toMatch(/\n\s+at /); // a sentence, not a stack
    expect(existsSync(out)).toBe(false);
    expect(sb.usage(KEY).calls).toBe(calls);
  });
});
