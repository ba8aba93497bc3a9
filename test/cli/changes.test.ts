/**
 * The watch on what changed, end to end: `firma refresh --changes changes.csv`
 * lists a company's change of status after the sandbox's registry changed it (config `overrides`),
 * and refuses an unwritable path before anything is spent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-changes-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  sb.config.overrides = {};
});

const CUIS = data.sampleCuis(3, 4242);

function book(): string {
  const file = join(dir, `book-${Math.random().toString(36).slice(2)}.xlsx`);
  const rows = [
    ["CUI", "Stare", "Adresa"],
    ...CUIS.map((c, i) => [c, { formula: `=FIRMA.STARE(A${i + 2})` }, { formula: `=FIRMA.ADRESA(A${i + 2})` }]),
  ];
  writeFileSync(file, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
  return file;
}

describe("firma refresh --changes", () => {
  test("a refresh after the registry changed a company lists the change in the CSV", async () => {
    const key = "demo-enterprise-changes1";
    const file = book();
    const cache = join(dir, "cache1");
    const csv = join(dir, "changes1.csv");
    const first = await firma(["refresh", file, "--key", key, "--base-url", sb.url, "--cache-dir", cache, "--changes", csv]);
    expect(first.code).toBe(0);
    // First fetch: nothing to compare with, the header alone.
    expect(readFileSync(csv, "utf8")).toBe("\ufeffCUI,câmp/field,înainte/before,după/after,date\r\n");

    const target = CUIS[1];
    const before = data.company(target)!;
    const newStare = before.stare === "RADIATA" ? "ACTIVA" : "RADIATA";
    sb.config.overrides = { [String(target)]: { stare: newStare, adresa: "Str. Nouă nr. 1, bl. A" } };
    const started = Date.now();
    const second = await firma(["refresh", file, "--key", key, "--base-url", sb.url, "--cache-dir", cache, "--changes", csv, "--force"]);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/schimbări de stare, TVA, denumire sau adresă: 2/);
    const lines = readFileSync(csv, "utf8")
      .replace(/^\ufeff/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("CUI,câmp/field,înainte/before,după/after,date");
    const rows = lines.slice(1).map((l) => l.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/));
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      [String(target), "stare", before.stare, newStare],
      [String(target), "adresa", /[",]/.test(before.adresa) ? `"${before.adresa}"` : before.adresa, '"Str. Nouă nr. 1, bl. A"'],
    ]);
    expect(Date.parse(rows[0][4])).toBeGreaterThanOrEqual(started - 1000);

    // A third run with nothing changed lists nothing: the changes are the run's own.
    const third = await firma(["refresh", file, "--key", key, "--base-url", sb.url, "--cache-dir", cache, "--changes", csv, "--force"]);
    expect(third.code).toBe(0);
    expect(readFileSync(csv, "utf8").trimEnd().split("\r\n")).toHaveLength(1);
  });

  test("an unwritable --changes path is refused before any credit is spent", async () => {
    const key = "demo-enterprise-changes2";
    const r = await firma([
      "refresh",
      book(),
      "--key",
      key,
      "--base-url",
      sb.url,
      "--no-cache",
      "--changes",
      join(dir, "no-such-dir", "c.csv"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no-such-dir/);
    expect(sb.usage(key).total).toBe(0);
  });
});

describe("engine.changes() and markChanges()", () => {
  test("records status, VAT, name and address changes with both fetch times; persisted and bounded by marks", async () => {
    const store = new MemoryStore();
    let now = Date.UTC(2025, 0, 1);
    const engine = new FirmaEngine({ baseUrl: sb.url, apiKey: () => "demo-enterprise-changes3", store, windowMs: 1, now: () => now });
    const cui = CUIS[0];
    const c = data.company(cui)!;
    await engine.prefetch([{ kind: "profile", cui, field: "adresa" }]);
    const t0 = now;
    expect(engine.changes()).toEqual([]);

    now += 86_400_000;
    const mark = engine.markChanges();
    sb.config.overrides = { [String(cui)]: { platitor_tva: !c.platitor_tva, denumire: c.denumire + " NOU" } };
    await engine.prefetch([{ kind: "profile", cui, field: "adresa" }], { force: true });
    const expected = [
      // each named as in the answer that showed the change (its new name)
      {
        cui,
        field: "platitor_tva",
        before: c.platitor_tva,
        after: !c.platitor_tva,
        beforeFetchedAt: t0,
        afterFetchedAt: now,
        name: c.denumire + " NOU",
      },
      {
        cui,
        field: "denumire",
        before: c.denumire,
        after: c.denumire + " NOU",
        beforeFetchedAt: t0,
        afterFetchedAt: now,
        name: c.denumire + " NOU",
      },
    ];
    expect(engine.changes()).toEqual(expected);
    expect(engine.changes(mark)).toEqual(expected);
    await engine.persist();

    // Reopened: the same changes, from the store.
    const again = new FirmaEngine({ baseUrl: sb.url, apiKey: () => "demo-enterprise-changes3", store, now: () => now });
    await again.ready();
    expect(again.changes()).toEqual(expected);
    again.markChanges();
    expect(again.changes()).toEqual([]);
    expect(again.changes(mark)).toEqual(expected);
  });
});
