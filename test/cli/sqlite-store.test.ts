/**
 * The CLI's cache file (SQLite): every answer it was given survives to the next run, and a file it
 * cannot use is named in a clear message before anything is spent.
 */
import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { firma } from "../support/cli";
import { reportedCredits } from "./helpers";
import { CacheStoreError, defaultCachePath, SqliteStore } from "../../src/cli/sqlite-cache";
import { buildWorkbook, demoSpec } from "../fixtures/build-workbook";
import { PersistentCache, TTL } from "../../src/engine/cache/cache";
import { startSandbox, Sandbox } from "../../sandbox/server";
import { company, financialYear, sampleCuis, LATEST_YEAR } from "../../sandbox/dataset";

let dir: string;
let n = 0;
const open: SqliteStore[] = [];
const file = () => join(dir, `c${++n}`, "cache.sqlite");
function store(path: string, busyTimeoutMs?: number): SqliteStore {
  const s = new SqliteStore(path, { busyTimeoutMs });
  open.push(s);
  return s;
}

beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "firma-sqlite-"))));
afterAll(() => {
  for (const s of open) s.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the default path is $XDG_CACHE_HOME/firma/cache.sqlite, else ~/.cache/firma/cache.sqlite", () => {
  const saved = process.env.XDG_CACHE_HOME;
  try {
    process.env.XDG_CACHE_HOME = "/x/cache";
    expect(defaultCachePath()).toBe("/x/cache/firma/cache.sqlite");
    delete process.env.XDG_CACHE_HOME;
    expect(defaultCachePath()).toMatch(/\.cache\/firma\/cache\.sqlite$/);
  } finally {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  }
});

test("100,000 answers saved are all served by the next run, with their fetch times", async () => {
  const path = file();
  const now = Date.UTC(2026, 0, 10);
  // the engine's limit on answers in memory out of the way: this is the file's test, not the limit's (the
  // bench's SCALE runs a refresh of 100,000 rows on this file: 200,000 answers)
  const a = new PersistentCache(store(path), { now: () => now, saveDelayMs: 0, maxEntries: 1_000_000 });
  await a.load();
  const cuis = sampleCuis(2000);
  const sample = cuis.flatMap((c) => [company(c), financialYear(c, LATEST_YEAR)]);
  for (let i = 0; i < 50_000; i++) {
    a.set(`p:${1_000_000 + i}`, sample[(2 * i) % sample.length], TTL.profile);
    a.set(`f:${1_000_000 + i}:${LATEST_YEAR}`, sample[(2 * i + 1) % sample.length], TTL.closedYear);
  }
  let t0 = performance.now();
  await a.save();
  const saveMs = performance.now() - t0;
  a.set("p:14399840", { cui: 14399840, denumire: "X SRL" }, TTL.profile);
  t0 = performance.now();
  await a.save(); // incremental: one row
  const oneMs = performance.now() - t0;

  t0 = performance.now();
  const b = new PersistentCache(store(path), { now: () => now + 1000, saveDelayMs: 0, maxEntries: 1_000_000 });
  await b.load();
  const loadMs = performance.now() - t0;
  expect(b.size).toBe(100_001);
  let fresh = 0;
  for (let i = 0; i < 50_000; i++)
    if (b.freshValue(`p:${1_000_000 + i}`) !== undefined && b.freshValue(`f:${1_000_000 + i}:${LATEST_YEAR}`) !== undefined) fresh += 2;
  expect(fresh).toBe(100_000);
  expect(b.fetchedAt("p:14399840")).toBe(now);
  for (const s of open) s.close(); // the last connection to close folds the write-ahead log into the file
  const size = statSync(path).size;
  console.log(
    `SQLite: 100,000 answers saved in ${(saveMs / 1000).toFixed(1)} s, one more in ${oneMs.toFixed(1)} ms, loaded in ${(loadMs / 1000).toFixed(1)} s; ` +
      `file ${(size / 1048576).toFixed(0)} MB`,
  );
}, 120_000);

test("the meter's and learned facts' KeyValueStore lives in the same file", async () => {
  const path = file();
  const a = store(path);
  await a.setItem("firma.meter.v1", '{"x":1}');
  a.close();
  const b = store(path);
  expect(await b.getItem("firma.meter.v1")).toBe('{"x":1}');
  await b.removeItem("firma.meter.v1");
  expect(await b.getItem("firma.meter.v1")).toBeNull();
});

test("a file locked by another program: a clear error naming the path", () => {
  const path = file();
  store(path).close();
  const other = new Database(path);
  other.pragma("locking_mode = EXCLUSIVE");
  other.exec("BEGIN EXCLUSIVE");
  try {
    const t0 = Date.now();
    expect(() => store(path, 200)).toThrow(CacheStoreError);
    expect(Date.now() - t0).toBeLessThan(5000);
    try {
      store(path, 200);
    } catch (e) {
      const err = e as CacheStoreError;
      expect(err.message).toContain(path);
      // said in the user's language, one language at a time
      expect(err.messageIn("ro")).toMatch(/blocat de alt program: /);
      expect(err.messageIn("ro")).not.toMatch(/locked by|cannot be used/);
      expect(err.messageIn("en")).toMatch(/The disk cache cannot be used.*locked by another program: /);
      expect(err.messageIn("en")).not.toMatch(/blocat/);
    }
  } finally {
    other.exec("ROLLBACK");
    other.close();
  }
});

test("a file that is not a database (garbage bytes): a clear error naming the path", () => {
  const path = file();
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256)));
  expect(() => store(path)).toThrow(CacheStoreError);
  expect(() => store(path)).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*not a valid SQLite database`));
});

test("a path that cannot be a file (a folder is there): a clear error naming the path", () => {
  const path = file();
  mkdirSync(path, { recursive: true });
  expect(() => store(path)).toThrow(path);
});

describe("firma refresh with a cache it cannot use", () => {
  let sb: Sandbox;
  beforeAll(async () => (sb = await startSandbox({ port: 0 })));
  afterAll(() => sb.close());

  test("exit code 1, the message names the file, and nothing is spent", async () => {
    const cacheDir = join(dir, "broken");
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, "cache.sqlite"), "this is not a database, it is a note somebody left here".repeat(100));
    const book = join(dir, "book.xlsx");
    writeFileSync(book, buildWorkbook(demoSpec({ rows: 3, cuis: sampleCuis(3, 5000) })));
    const before = sb.requests.length;
    const { code, out, err } = await firma(["refresh", book, "--key", "demo-pro-sqlite", "--base-url", sb.url, "--cache-dir", cacheDir]);
    expect(code).toBe(1);
    expect(err).toContain(join(cacheDir, "cache.sqlite"));
    expect(err).toMatch(/Nu s-a cheltuit nimic\. .*--no-cache/); // in the user's language (Romanian here), from the catalog
    expect(out).toBe("");
    expect(sb.requests.length).toBe(before);
  });

  test("a working cache file: the second run is answered from it, for no credits", async () => {
    const cacheDir = join(dir, "works");
    const book = join(dir, "book2.xlsx");
    writeFileSync(book, buildWorkbook(demoSpec({ rows: 4, cuis: sampleCuis(4, 6000) })));
    const run = async () => {
      const { code, out } = await firma(["refresh", book, "--cache-dir", cacheDir, "--out", join(dir, "o.xlsx")], {
        key: "demo-pro-sqlite2",
        baseUrl: sb.url,
      });
      return { code, credits: reportedCredits(out).spent };
    };
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.credits).toBeGreaterThan(0);
    expect(statSync(join(cacheDir, "cache.sqlite")).size).toBeGreaterThan(0);
    const second = await run();
    expect(second.code).toBe(0);
    expect(second.credits).toBe(0);
  });
});
