/**
 * A watch list's check against its own baseline (src/server/firm/watch-diff.ts), committed in the
 * firm's store (watch-store.ts, SQLite in a temporary folder): a first check sets the baseline and
 * alerts nothing; a second finds exactly the fields that changed (status, VAT, name, address,
 * county, CAEN, trade-registry number); a third finds none; a field a batch did not carry, a call
 * that failed, a spelling that differs only in case or spaces are no change; a company the service
 * no longer knows is one, once confirmed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { diff, diffYears, type Observation, type YearObservation } from "../../src/server/firm/watch-diff";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";

const NOW = Date.UTC(2026, 10, 25, 4, 0);
const A = 14399840;
const B = 19;
const C = 27;

const profile = (over: Record<string, unknown> = {}): Observation => ({
  kind: "found",
  profile: {
    cui: A,
    denumire: "ALFA SRL",
    stare: "ACTIVA",
    platitor_tva: true,
    adresa: "Str. Lungă 1",
    judet: "Cluj",
    caen_principal: "6201",
    j_cod: "J12/1234/2010",
    ...over,
  },
});

let dir: string;
let store: FirmStore;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-diff-"));
  store = await openFirmStore(path.join(dir, "firm.db"));
  await store.watch.addList({ name: "clienti", owner: null, schedule: null, notify: [], cuis: [A, B, C] }, NOW);
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function check(observed: Array<[number, Observation]>, at: number) {
  const found = diff(await store.watch.seen("clienti"), new Map(observed));
  return { found, stored: await store.watch.commitCheck("clienti", found, at) };
}

test("first check: the baseline, no alert; second: exactly the fields that changed; third: none", async () => {
  const first = await check(
    [
      [A, profile()],
      [B, profile({ cui: B, denumire: "BETA SA" })],
    ],
    NOW,
  );
  expect(first.stored).toEqual([]);
  expect(first.found.updates).toHaveLength(14);

  const changed = profile({
    stare: "RADIATA",
    platitor_tva: false,
    denumire: "ALFA NOUA SRL",
    adresa: "Str. Scurtă 2",
    judet: "Alba",
    caen_principal: "6202",
    j_cod: "J01/1/2026",
  });
  const second = await check(
    [
      [A, changed],
      [B, profile({ cui: B, denumire: "BETA SA" })],
    ],
    NOW + 86_400_000,
  );
  expect(second.stored.map((c) => [c.cui, c.field, c.before, c.after])).toEqual([
    [A, "stare", "ACTIVA", "RADIATA"],
    [A, "platitor_tva", true, false],
    [A, "denumire", "ALFA SRL", "ALFA NOUA SRL"],
    [A, "adresa", "Str. Lungă 1", "Str. Scurtă 2"],
    [A, "judet", "Cluj", "Alba"],
    [A, "caen_principal", "6201", "6202"],
    [A, "j_cod", "J12/1234/2010", "J01/1/2026"],
  ]);
  expect(second.stored.every((c) => c.name === "ALFA NOUA SRL" && c.seenAt === NOW + 86_400_000 && c.list === "clienti")).toBe(true);
  // ids grow: a receiver de-duplicates by them
  const ids = second.stored.map((c) => c.id);
  expect(new Set(ids).size).toBe(7);

  const third = await check(
    [
      [A, changed],
      [B, profile({ cui: B, denumire: "BETA SA" })],
    ],
    NOW + 2 * 86_400_000,
  );
  expect(third.stored).toEqual([]);
  expect(await store.watch.changes("clienti")).toHaveLength(7);
  expect(await store.watch.changes("clienti", Math.max(...ids))).toEqual([]);
  const log = await store.watch.log("clienti");
  expect(log.filter((e) => e.kind === "checked").map((e) => e.detail)).toEqual([
    { changes: 0, firstSeen: 14, unknown: 0 },
    { changes: 7, firstSeen: 0, unknown: 0 },
    { changes: 0, firstSeen: 0, unknown: 0 },
  ]);
});

test("no change: a field the answer lacks, a failed call, case and spaces; a field first seen sets its baseline", async () => {
  await check([[A, { kind: "found", profile: { cui: A, denumire: "ALFA SRL", stare: "ACTIVA" } }]], NOW);
  // a batch item without the address, a name in other case and spacing, the county seen for the first time
  const r = await check(
    [
      [A, { kind: "found", profile: { cui: A, denumire: " alfa  srl ", stare: "ACTIVA", judet: "Cluj" } }],
      [B, { kind: "failed" }],
    ],
    NOW + 1,
  );
  expect(r.stored).toEqual([]);
  expect(r.found.unknown).toEqual([B]);
  expect((await store.watch.seen("clienti")).get(A)?.get("judet")).toBe("Cluj");
  expect((await store.watch.seen("clienti")).has(B)).toBe(false);
  // a failed call after a baseline: still nothing, and the baseline stays
  const again = await check([[A, { kind: "failed" }]], NOW + 2);
  expect(again.stored).toEqual([]);
  expect((await store.watch.seen("clienti")).get(A)?.get("stare")).toBe("ACTIVA");
});

test("a company the service no longer knows (confirmed): its status becomes none, once; seen first as gone: no alert", async () => {
  await check(
    [
      [A, profile()],
      [C, { kind: "gone" }],
    ],
    NOW,
  );
  const r = await check(
    [
      [A, { kind: "gone" }],
      [C, { kind: "gone" }],
    ],
    NOW + 1,
  );
  expect(r.stored.map((c) => [c.cui, c.field, c.before, c.after, c.name])).toEqual([[A, "stare", "ACTIVA", null, "ALFA SRL"]]);
  expect((await check([[A, { kind: "gone" }]], NOW + 2)).stored).toEqual([]);
  // back again: a change from none
  const back = await check([[A, profile()]], NOW + 3);
  expect(back.stored.map((c) => [c.field, c.before, c.after])).toEqual([["stare", null, "ACTIVA"]]);
});

test("removing a company from the list forgets its baseline: added back, its first check alerts nothing", async () => {
  await check([[A, profile()]], NOW);
  await store.watch.removeMembers("clienti", [A], NOW + 1);
  await store.watch.updateList("clienti", { cuis: [A, B, C] }, NOW + 2);
  expect((await check([[A, profile({ stare: "INACTIVA" })]], NOW + 3)).stored).toEqual([]);
});

test("the financial year: a first sighting alerts nothing; a later year is one change; a year not shown or an earlier one is none; beside the other fields", async () => {
  await check([[A, profile()]], NOW);
  const years = async (obs: Array<[number, YearObservation]>, at: number) => {
    const found = diffYears(await store.watch.seen("clienti"), new Map(obs));
    return { found, stored: await store.watch.commitCheck("clienti", found, at) };
  };
  const first = await years(
    [
      [A, 2024],
      [B, null],
      [C, "failed"],
    ],
    NOW + 1,
  );
  expect(first.stored).toEqual([]);
  expect(first.found.unknown).toEqual([C]);
  // The service's latest year moved on, A has not published it yet (null): its year is kept.
  expect((await years([[A, null]], NOW + 2)).stored).toEqual([]);
  expect((await store.watch.seen("clienti")).get(A)!.get("an_financiar")).toBe(2024);
  expect((await years([[A, 2023]], NOW + 3)).stored).toEqual([]);
  const later = await years(
    [
      [A, 2025],
      [B, 2025],
      [C, 2025],
    ],
    NOW + 4,
  );
  expect(later.stored.map((c) => [c.cui, c.field, c.before, c.after, c.name])).toEqual([
    [A, "an_financiar", 2024, 2025, "ALFA SRL"],
    [B, "an_financiar", null, 2025, null],
  ]);
  // The identification check's fields are untouched by it, and it by theirs.
  expect((await check([[A, profile()]], NOW + 5)).stored).toEqual([]);
  expect((await years([[A, 2025]], NOW + 6)).stored).toEqual([]);
});
