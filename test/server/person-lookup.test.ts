/**
 * A person read by her token's hash (sql-store.ts userByTokenHash), on a real SQLite file: her month's
 * spend in the same query; "last seen" written at most once a minute; and when the database answers but
 * takes no writes (read-only, full disk, upgraded under this instance) she is still known, with her
 * spend, while a database that does not answer at all is said as such.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { migrate, type SqlRunner } from "../../src/server/firm/schema";
import { SqlFirmStore, type SqlDriver } from "../../src/server/firm/sql-store";
import { FirmStoreError, type FirmStoreErrorCode } from "../../src/server/firm/firm-store";

const MONTH = "2026-11";
const NOW = Date.UTC(2026, 10, 25, 10);

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "firma-person-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A plain better-sqlite3 driver that counts writes, and refuses them with `refuse` when set. */
function driver(file: string): SqlDriver & { writes: string[]; reads: string[]; refuse: FirmStoreErrorCode | null } {
  const db = new Database(file);
  const runner: SqlRunner = {
    all: async <T>(sql: string, params: readonly unknown[] = []) => db.prepare(sql).all(...params) as T[],
    run: async (sql: string, params: readonly unknown[] = []) => {
      const s = db.prepare(sql);
      return s.reader ? s.all(...params).length : s.run(...params).changes;
    },
  };
  const d = {
    engine: "sqlite" as const,
    writes: [] as string[],
    reads: [] as string[],
    refuse: null as FirmStoreErrorCode | null,
    all: <T>(sql: string, params?: readonly unknown[]) => {
      if (/FROM firm_users/.test(sql)) d.reads.push(sql);
      if (/^\s*(INSERT|UPDATE|DELETE)/i.test(sql)) {
        d.writes.push(sql);
        if (d.refuse) return Promise.reject(new FirmStoreError(d.refuse, `refused: ${d.refuse}`));
      }
      return runner.all<T>(sql, params);
    },
    run: (sql: string, params?: readonly unknown[]) => {
      d.writes.push(sql);
      if (d.refuse) return Promise.reject(new FirmStoreError(d.refuse, `refused: ${d.refuse}`));
      return runner.run(sql, params);
    },
    transaction: async <T>(fn: (tx: SqlRunner) => Promise<T>) => {
      if (d.refuse) throw new FirmStoreError(d.refuse, `refused: ${d.refuse}`);
      db.exec("BEGIN IMMEDIATE");
      try {
        const r = await fn(runner);
        db.exec("COMMIT");
        return r;
      } catch (e) {
        db.exec("ROLLBACK");
        throw e;
      }
    },
    writable: async () => undefined,
    close: async () => void db.close(),
  };
  return d;
}

test("her month's spend comes with her; last seen is written once a minute, not on every request", async () => {
  const d = driver(join(dir, "a.sqlite"));
  await d.transaction((tx) => migrate(tx, "sqlite", "a.sqlite"));
  const s = new SqlFirmStore(d);
  await s.addUser("ana", 10, "hash-a", NOW);
  for (let i = 0; i < 3; i++)
    expect(await s.reserveCredit({ user: "ana", month: MONTH, day: `${MONTH}-25`, maxPerDay: null, now: NOW })).toBe("ok");
  d.writes.length = 0;
  expect(await s.userByTokenHash("hash-a", NOW, MONTH)).toMatchObject({ name: "ana", budget: 10, spent: 3, lastSeenAt: NOW });
  expect(await s.userByTokenHash("hash-a", NOW + 59_000, MONTH)).toMatchObject({ spent: 3, lastSeenAt: NOW });
  expect(d.writes).toHaveLength(1);
  expect(await s.userByTokenHash("hash-a", NOW + 60_000, MONTH)).toMatchObject({ lastSeenAt: NOW + 60_000 });
  expect(d.writes).toHaveLength(2);
  expect(await s.userByTokenHash("hash-unknown", NOW, MONTH)).toBeNull();
  await s.close();
});

test.each<FirmStoreErrorCode>(["read_only", "disk_full", "newer_schema"])(
  "a database that takes no writes (%s) still says who a token is, with her spend",
  async (code) => {
    const d = driver(join(dir, `${code}.sqlite`));
    await d.transaction((tx) => migrate(tx, "sqlite", code));
    const s = new SqlFirmStore(d);
    await s.addUser("ana", 10, "hash-a", NOW);
    await s.reserveCredit({ user: "ana", month: MONTH, day: `${MONTH}-25`, maxPerDay: null, now: NOW });
    d.refuse = code;
    const ana = await s.userByTokenHash("hash-a", NOW + 120_000, MONTH);
    expect(ana).toMatchObject({ name: "ana", spent: 1, lastSeenAt: null }); // last seen waits for the database
    expect(d.writes.some((w) => /UPDATE firm_users SET last_seen_at/.test(w))).toBe(true);
    d.refuse = "unreachable";
    await expect(s.userByTokenHash("hash-a", NOW + 240_000, MONTH)).rejects.toMatchObject({ code: "unreachable" });
    d.refuse = null;
    await s.close();
  },
);

test("the people asking together are read in one statement; one asking alone waits for no one", async () => {
  const d = driver(join(dir, "batch.sqlite"));
  await d.transaction((tx) => migrate(tx, "sqlite", "batch.sqlite"));
  const s = new SqlFirmStore(d);
  for (let i = 0; i < 50; i++) await s.addUser(`p${i}`, 100, `hash-${i}`, NOW);
  d.reads.length = 0;
  const people = await Promise.all(Array.from({ length: 50 }, (_, i) => s.userByTokenHash(`hash-${i}`, NOW + 1, MONTH)));
  expect(people.map((p) => p?.name)).toEqual(Array.from({ length: 50 }, (_, i) => `p${i}`));
  expect(d.reads).toHaveLength(1);
  // Alone: asked once its turn ends (setImmediate), no timer waited, however slow the machine.
  const alone = s.userByTokenHash("hash-7", NOW + 2, MONTH);
  for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
  expect(d.reads).toHaveLength(2);
  expect(await alone).toMatchObject({ name: "p7" });
  await s.close();
});
