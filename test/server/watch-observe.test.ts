/**
 * A watch list's check against the sandbox over real HTTP (src/server/firm/watch-observe.ts, then
 * watch-diff.ts and the store): a first check sets the baseline; the sandbox's `overrides` change a
 * company's status, VAT, name and address as the registry would; a second check finds exactly those
 * four changes, a third none. A company the batch leaves out is confirmed by one profile call; a
 * budget that refuses, or a service that is down, leaves the companies unknown: never a change.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { FirmaClient } from "../../src/api/client";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { diff } from "../../src/server/firm/watch-diff";
import { observe } from "../../src/server/firm/watch-observe";
import { startSandbox, type Sandbox } from "../../sandbox/server";

let sb: Sandbox;
let dir: string;
let store: FirmStore;
let client: FirmaClient;
let valid: number[];
let missing: number;

async function sandboxCuis(kind: "valid" | "missing", count: number): Promise<number[]> {
  const r = await fetch(`${sb.url}/__sandbox/cuis?kind=${kind}&count=${count}`);
  return (await r.json()) as number[];
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  valid = await sandboxCuis("valid", 3);
  [missing] = await sandboxCuis("missing", 1);
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-observe-"));
  store = await openFirmStore(path.join(dir, "firm.db"));
  client = new FirmaClient({ baseUrl: sb.url, apiKey: `demo-business-watch${Math.random()}`, retries: 0 });
  await store.watch.addList({ name: "clienti", owner: null, schedule: null, notify: [], cuis: [...valid, missing] }, 0);
  await fetch(`${sb.url}/__sandbox/config`, { method: "PUT", body: JSON.stringify({ overrides: {} }) });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function check(at: number, budget?: () => boolean) {
  const cuis = await store.watch.members("clienti");
  const seen = await observe(client, cuis, budget);
  const found = diff(await store.watch.seen("clienti"), seen.observations);
  return { seen, found, stored: await store.watch.commitCheck("clienti", found, at) };
}

test("first check: the baseline; the registry changes four fields: exactly those four; then none", async () => {
  const first = await check(1);
  expect(first.stored).toEqual([]);
  // one batch for the four, one profile call to confirm the one the batch left out
  expect(first.seen.calls).toBe(2);
  expect(first.seen.observations.get(missing)).toEqual({ kind: "gone" });
  const before = (await store.watch.seen("clienti")).get(valid[0])!;
  expect(before.get("adresa")).toEqual(expect.any(String));

  const overrides = {
    [valid[0]]: { stare: "INACTIVA", platitor_tva: !before.get("platitor_tva"), denumire: "NUMELE NOU SRL", adresa: "Str. Nouă nr. 1" },
  };
  const put = await fetch(`${sb.url}/__sandbox/config`, { method: "PUT", body: JSON.stringify({ overrides }) });
  expect(put.status).toBe(200);
  const second = await check(2);
  expect(second.stored.map((c) => [c.cui, c.field, c.before, c.after])).toEqual([
    [valid[0], "stare", before.get("stare"), "INACTIVA"],
    [valid[0], "platitor_tva", before.get("platitor_tva"), !before.get("platitor_tva")],
    [valid[0], "denumire", before.get("denumire"), "NUMELE NOU SRL"],
    [valid[0], "adresa", before.get("adresa"), "Str. Nouă nr. 1"],
  ]);
  expect((await check(3)).stored).toEqual([]);
});

test("a budget that refuses mid-check: stopped, the rest unknown, no change reported for them", async () => {
  await check(1);
  await fetch(`${sb.url}/__sandbox/config`, { method: "PUT", body: JSON.stringify({ overrides: { [valid[1]]: { stare: "RADIATA" } } }) });
  let allowed = 1; // the batch, not the confirming profile call
  const r = await check(2, () => allowed-- > 0);
  expect(r.seen.stopped).toBe(true);
  expect(r.seen.calls).toBe(1);
  expect(r.found.unknown).toEqual([missing]);
  expect(r.stored.map((c) => [c.cui, c.field])).toEqual([[valid[1], "stare"]]);
  const none = await check(3, () => false);
  expect([none.seen.stopped, none.seen.calls, none.stored, none.found.unknown.length]).toEqual([true, 0, [], 4]);
});

test("a service that is down: every company unknown, the baseline kept, no change", async () => {
  await check(1);
  const down = new FirmaClient({ baseUrl: "http://127.0.0.1:1", apiKey: "demo-business-x", retries: 0, timeoutMs: 2000 });
  const seen = await observe(down, await store.watch.members("clienti"));
  const found = diff(await store.watch.seen("clienti"), seen.observations);
  expect([found.changes, found.updates, found.unknown.length]).toEqual([[], [], 4]);
});
