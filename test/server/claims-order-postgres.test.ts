/**
 * Two instances on one PostgreSQL: one stores a call's answers and lets go of its claims on them while the
 * other claims the same companies (its people asked for them too). Both lock the same claim rows; unless
 * both take them in one order, each can wait for a row the other holds, and PostgreSQL breaks the cycle
 * only after its deadlock_timeout (a second), failing one of the two statements, which the store then
 * runs again (postgres-store.ts): W10's fills through two instances stalled for seconds, a cycle a second
 * several times in a row, on exactly this (sql-store.ts MINE_IN_ORDER).
 *
 * The race is made certain rather than likely: a third session holds one of the claim rows, so that the
 * instance letting go stops half-way through its rows, and the other instance's claim starts meanwhile.
 * Without the order, PostgreSQL reports "deadlock detected" after a second (the statements end 1,014 ms
 * after the third session lets go, against 3–4 ms with it).
 */
import { Client } from "pg";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";

const bin = postgresBinDir();
const pgTest = bin ? test : test.skip;
let cluster: PostgresCluster | null = null;
const open: FirmStore[] = [];

beforeAll(async () => {
  if (bin) cluster = await startPostgres(bin);
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close().catch(() => undefined)));
  await cluster?.stop();
});

const NOW = Date.UTC(2026, 11, 4, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sessions of the database waiting for a lock, as PostgreSQL sees them. */
async function waitingOnLocks(db: string): Promise<number> {
  const rows = await cluster!.sql(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${db}' AND backend_type = 'client backend' AND wait_event_type = 'Lock'`,
  );
  return Number(rows[0].n);
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(10);
  }
  throw new Error(`never: ${what}`);
}

pgTest(
  "an instance letting go of its claims as it stores their answers, while another claims the same 100 companies: neither waits for the other in a cycle",
  async () => {
    const name = "claims_order";
    const url = await cluster!.createDatabase(name);
    // The plan of a firm's table of claims (below), whatever PostgreSQL's version would choose for this one:
    // a bitmap of the index, the rows met in the order they lie on disk.
    await cluster!.sql(`ALTER DATABASE ${name} SET enable_indexscan = off`);
    const [a, b] = [await openFirmStore(url), await openFirmStore(url)];
    open.push(a, b);
    // A firm's table of claims holds thousands of rows: PostgreSQL then finds 100 of them through a bitmap
    // of the index, in the order they lie on disk (a table of 100 it reads through the index, in key order).
    await cluster!.sql(
      `INSERT INTO firm_claims (key, owner, until) SELECT 'fin:' || g || ':2024', 'C', ${NOW + 60_000} FROM generate_series(1, 20000) AS g`,
      name,
    );
    await cluster!.sql("ANALYZE firm_claims", name);
    const keys = Array.from({ length: 100 }, (_, i) => `ident:${10_000_000 + i}:`);
    // A's claims, one at a time from the last key to the first: their rows lie on disk in that order.
    const onDisk = [...keys].reverse();
    for (const k of onDisk) expect((await a.claimAnswers([k], "A", NOW, NOW + 60_000)).size).toBe(1);
    const answers = keys.map((key) => ({ key, body: { cui: Number(key.split(":")[1]) }, fetchedAt: NOW, expiresAt: NOW + 86_400_000 }));

    // A third session holds the middle claim. Letting go in the order on disk, A would take the upper half
    // and wait; B, claiming in key order, would take the lower half and wait; then each would need what the
    // other holds.
    const blocker = new Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM firm_claims WHERE key = $1 FOR UPDATE", [keys[50]]);
      // A stores the answers and lets go of its claims (one statement): it stops at the held row.
      const putting = a.putAnswers(answers, { keys, owner: "A" }).then(
        () => "stored",
        (e: Error) => `failed: ${e.message}`,
      );
      await until("A waits for the held row", async () => (await waitingOnLocks(name)) === 1);
      // B claims the same companies meanwhile: it stops at a row A holds.
      const claiming = b.claimAnswers(keys, "B", NOW, NOW + 60_000).then(
        (held) => held,
        (e: Error) => `failed: ${e.message}`,
      );
      await until("B waits too", async () => (await waitingOnLocks(name)) === 2);
      const t0 = Date.now();
      await blocker.query("COMMIT");
      const [put, claimed] = await Promise.all([putting, claiming]);
      const took = Date.now() - t0;
      // Neither waited a second for PostgreSQL to find a cycle (and fail one of them, run again by the store).
      expect(put).toBe("stored");
      expect(claimed).toBeInstanceOf(Set);
      expect(took).toBeLessThan(900);
      // B waited for A's statement to end, then found every claim let go: all 100 are B's now.
      expect((claimed as Set<string>).size).toBe(100);
      expect((await b.getAnswers(keys, NOW)).size).toBe(100);
      expect([...(await a.claimedKeys(keys, NOW)).values()].every((owner) => owner === "B")).toBe(true);
    } finally {
      await blocker.end();
    }
  },
  60_000,
);
