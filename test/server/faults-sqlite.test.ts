/**
 * The firm's server on an SQLite file whose disk fills or that is read-only, and a newer FIRMA
 * migrating the file under a running older one; real processes: `firma serve` as a child process
 * (test/support/firm-server.ts), the file on a small tmpfs of its own (a full disk is a real ENOSPC:
 * the tmpfs is filled with a file; mounting needs root, else the disk cases are skipped with a warning).
 * A read-only file for root is an immutable one (chattr +i); a file cannot be made read-only under a
 * process that already has it open for writing (root keeps writing through the open descriptor, and a
 * remount read-only is refused while a file is open for writing), so read-only is checked at start.
 */
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import Database from "better-sqlite3";
import { openFirmStore } from "../../src/server/firm/open-store";
import { SCHEMA_VERSION } from "../../src/server/firm/schema";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { ask, minimalDist, startFirmServer, until, type FirmServer } from "../support/firm-server";

const KEY = "demo-business-faults-sqlite-s3cr3t";
let sb: Sandbox;
let dir: string;
let dist: string;
let keyFile: string;
let serial = 0;
const servers: FirmServer[] = [];
const mounts: string[] = [];

/** A tmpfs of `kb` KiB, or null when this user cannot mount one. */
function smallDisk(kb: number): string | null {
  const at = path.join(dir, `disk${++serial}`);
  fs.mkdirSync(at);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${kb}k`, "tmpfs", at], { stdio: "ignore" });
  } catch {
    console.warn("full-disk cases skipped: cannot mount a tmpfs here (not root?)");
    return null;
  }
  mounts.push(at);
  return at;
}

/** Fills the disk under `at` to its last byte; returns the filler, to be removed to free it. */
function fill(at: string): string {
  const filler = path.join(at, "filler");
  const fd = fs.openSync(filler, "w");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
  }
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(512, 1));
  } catch {
    /* the last bytes */
  }
  fs.closeSync(fd);
  return filler;
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-faults-sqlite-"));
  dist = minimalDist(dir);
  keyFile = path.join(dir, "key");
  fs.writeFileSync(keyFile, `${KEY}\n`);
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const s of servers) expect(s.printed()).not.toContain(KEY);
  await sb.close();
  for (const m of mounts) execFileSync("umount", ["-l", m]);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function people(database: string, names: string[]): Promise<string[]> {
  const setup = await openFirmStore(database);
  const tokens = names.map(() => newToken());
  for (const [i, n] of names.entries()) await setup.addUser(n, 1000, hashToken(tokens[i]), Date.now());
  await setup.close();
  return tokens;
}

async function serve(database: string): Promise<FirmServer> {
  const s = await startFirmServer({ keyFile, database, upstream: sb.url, dist });
  servers.push(s);
  return s;
}

const CUIS = data.sampleCuis(600, 61_001).filter((c) => data.company(c));
const batch = (cuis: number[]) => `/v4/firme/batch?cui=${cuis.join(",")}`;

test("a full disk or a read-only file at start: firma serve says which, and does not start", async () => {
  const disk = smallDisk(1024);
  if (!disk) return;
  fill(disk);
  const full = await startFirmServer({ keyFile, database: path.join(disk, "firm.sqlite"), upstream: sb.url, dist, until: "ended" });
  expect(await full.exited).toBe(1);
  expect(full.printed()).toMatch(
    /the disk under the database .*firm\.sqlite is full: the firm's server must write to it; free some space\./,
  );
  const ro = path.join(dir, "ro.sqlite");
  await people(ro, ["ana"]);
  try {
    execFileSync("chattr", ["+i", ro], { stdio: "ignore" });
  } catch {
    console.warn("read-only case skipped: chattr +i does not work here");
    return;
  }
  try {
    const s = await startFirmServer({ keyFile, database: ro, upstream: sb.url, dist, until: "ended" });
    expect(await s.exited).toBe(1);
    expect(s.printed()).toMatch(/the database .*ro\.sqlite is read-only: the firm's server must write to it\./);
  } finally {
    execFileSync("chattr", ["-i", ro]);
  }
}, 120_000);

test("the disk fills while the server runs: stored answers still given, no call made, 503 with Retry-After; once freed, everything kept is written and nothing is half-written", async () => {
  const disk = smallDisk(8 * 1024);
  if (!disk) return;
  const database = path.join(disk, "firm.sqlite");
  const [ana] = await people(database, ["ana"]);
  const s = await serve(database);
  const a = batch(CUIS.slice(0, 20));
  const b = batch(CUIS.slice(20, 40));
  expect((await ask(s, ana, a)).status).toBe(200);
  const filler = fill(disk);
  const calls = sb.usage(KEY).calls;
  const fromStore = await ask(s, ana, a);
  expect(fromStore.status).toBe(200);
  expect(fromStore.body).toHaveLength(20);
  const refused = await ask(s, ana, b);
  expect(refused.status).toBe(503);
  expect(refused.body.error.code).toBe("store_full");
  expect(refused.body.error.message).toMatch(/Discul bazei de date a serverului firmei este plin/);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(sb.usage(KEY).calls).toBe(calls); // fail-closed: no call without a place to record it
  expect(s.printed()).toMatch(/kept and tried again/);
  fs.rmSync(filler);
  // Freed: the server writes again by itself.
  await until(async () => (await ask(s, ana, b)).status === 200, 20_000, 300);
  const store = await openFirmStore(database);
  try {
    await until(async () => (await store.auditSince(0)).length >= 4, 20_000);
    const lines = (await store.auditSince(0)).map((l) => [l.status, l.source]);
    expect(lines).toEqual([
      [200, "upstream"],
      [200, "store"], // answered while the disk was full: its line written once it was freed
      [503, "refused"],
      [200, "upstream"],
    ]);
    const spent = (await store.listUsers(bucharestMonth(Date.now()))).reduce((n, u) => n + u.spent, 0);
    expect(spent).toBe(sb.usage(KEY).total);
    expect(
      (
        await store.getAnswers(
          CUIS.slice(0, 40).map((c) => `ident:${c}:`),
          Date.now(),
        )
      ).size,
    ).toBe(40);
  } finally {
    await store.close();
  }
  const db = new Database(database, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    db.close();
  }
}, 120_000);

test("a newer FIRMA migrates the file under a running older one: the older stops writing at once, says so, and answers 503", async () => {
  const database = path.join(dir, `upgrade${++serial}.sqlite`);
  const [ana] = await people(database, ["ana"]);
  const s = await serve(database);
  expect((await ask(s, ana, batch(CUIS.slice(100, 110)))).status).toBe(200);
  const newer = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "..", "support", "newer-firma.ts"), database], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let said = "";
  newer.stdout!.on("data", (b: Buffer) => (said += b.toString()));
  try {
    await until(() => said.includes(`migrated ${SCHEMA_VERSION + 1}`), 60_000);
    const count = () => {
      const db = new Database(database, { readonly: true });
      try {
        return db.prepare("SELECT (SELECT COUNT(*) FROM firm_audit) + (SELECT COUNT(*) FROM firm_answers) AS n").get() as { n: number };
      } finally {
        db.close();
      }
    };
    const rows = count().n;
    const calls = sb.usage(KEY).calls;
    const r = await ask(s, ana, batch(CUIS.slice(110, 120)));
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("store_upgraded");
    expect(r.headers.get("retry-after")).toBeTruthy();
    expect(sb.usage(KEY).calls).toBe(calls);
    expect((await ask(s, ana, batch(CUIS.slice(100, 110)))).status).toBe(503);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(503); // a load balancer sends the people to the newer instance
    expect(s.printed()).toMatch(
      new RegExp(
        `was migrated to schema version ${SCHEMA_VERSION + 1} by a newer FIRMA while this one \\(version ${SCHEMA_VERSION}\\) ran: this instance no longer writes to it`,
      ),
    );
    expect(count().n).toBe(rows); // nothing written by the older instance since
  } finally {
    newer.kill("SIGKILL");
  }
}, 120_000);
