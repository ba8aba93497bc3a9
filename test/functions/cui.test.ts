/**
 * FIRMA.CUI(nume; [judet]) (FIRMA.TAXID) evaluated as Excel and firma refresh evaluate it (evaluate.ts),
 * against the sandbox over loopback: the CUI only when sure, #N/A saying why otherwise, a column for a range.
 */
import { evaluate, cellRequests } from "../../src/shared/evaluate";
import { engineFor } from "../support/engine";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { universe } from "../../sandbox/universe";
import { normalizeName } from "../../src/engine/engine";

const sb = sandboxPerFile(() => ({ faults: {}, overrides: {}, searchMode: "word-prefix", searchDiacritics: "folded" }));
let n = 0;
const setup = (o = {}) => engineFor(sb, `demo-enterprise-cui${++n}`, o);

/** Three companies alone with their name, and a name two companies share (one of them planted). */
let alone: { cui: number; denumire: string; judet: string }[];
beforeAll(() => {
  const count = new Map<string, number>();
  for (const c of universe().companies) count.set(normalizeName(c.denumire), (count.get(normalizeName(c.denumire)) ?? 0) + 1);
  alone = universe()
    .companies.filter((c) => count.get(normalizeName(c.denumire)) === 1 && c.denumire.split(" ").length >= 3)
    .slice(0, 3);
});

test("a name alone in the registry: its CUI, in the cell; a range of names: a column", async () => {
  const { engine, charged } = setup();
  const [a, b, c] = alone;
  expect(await evaluate("CUI", [a.denumire.toLowerCase()], { engine, lang: "ro" })).toEqual([[a.cui]]);
  const m = await evaluate(
    "CUI",
    [
      [
        [`SC ${b.denumire}`, null],
        [c.denumire, ""],
      ],
      null,
    ],
    { engine, lang: "ro" },
  );
  expect(m).toEqual([[b.cui], [""], [c.cui], [""]]);
  expect(charged()).toBe(3);
});

test("likely, ambiguous, not found and a county elsewhere: #N/A saying which, in either language", async () => {
  const { engine } = setup();
  const [a, b] = alone;
  const twin = universe().companies[777];
  const partial = universe().companies[778];
  sb.config.overrides = {
    [String(twin.cui)]: { denumire: b.denumire.replace(/ SRL$/, " SA"), judet: b.judet === "Cluj" ? "Bacău" : "Cluj" },
    [String(partial.cui)]: { denumire: "QQZ UNIC PARTIAL CONSTRUCT SRL" },
  };
  const other = a.judet === "Alba" ? "Arad" : "Alba";
  const counties = [[partial.judet], [""], [""], [other]];
  const m = await evaluate("CUI", [[["Qqz Unic Partial"], [b.denumire], ["Zzqq Inexistent Srl"], [a.denumire]], counties], {
    engine,
    lang: "ro",
  });
  expect(m).toEqual([
    [
      {
        error: "#N/A",
        message: `Probabil QQZ UNIC PARTIAL CONSTRUCT SRL (CUI ${partial.cui}), dar nu sigur: verificați și scrieți CUI-ul.`,
      },
    ],
    [{ error: "#N/A", message: "Ambiguu: 2 firme se potrivesc; adăugați județul sau numele complet." }],
    [{ error: "#N/A", message: "Nicio firmă cu acest nume; verificați numele." }],
    [{ error: "#N/A", message: expect.stringMatching(/^Nicio firmă cu acest nume în județul dat \(1 în alte județe\)/) }],
  ]);
  const en = await evaluate("CUI", [b.denumire], { engine, lang: "en" });
  expect(en).toEqual([[{ error: "#N/A", message: "Ambiguous: 2 companies fit; add the county or the full name." }]]);
  expect(await evaluate("CUI", [b.denumire, b.judet], { engine, lang: "en" })).toEqual([[b.cui]]);
});

test("bad input answers #VALUE! for free; a stop answers the usual error for its cause", async () => {
  const { engine, charged } = setup();
  const bad = await evaluate("CUI", [[["SRL"], [12345], ["X"]], null], { engine, lang: "en" });
  expect(bad.map((r) => (r[0] as { error: string }).error)).toEqual(["#VALUE!", "#VALUE!", "#VALUE!"]);
  expect(await evaluate("CUI", [null], { engine, lang: "en" })).toEqual([
    [{ error: "#VALUE!", message: "The company's name is missing: the cell is empty." }],
  ]);
  expect(await evaluate("CUI", [alone[0].denumire, "Atlantida"], { engine, lang: "ro" })).toEqual([
    [{ error: "#VALUE!", message: "Județ necunoscut: „Atlantida”; scrieți codul (BC) sau numele (Bacău)." }],
  ]);
  expect(charged()).toBe(0);
  sb.config.faults = { rateLimitAfter: 0 };
  const stopped = await evaluate("CUI", [alone[0].denumire], { engine, lang: "en" });
  expect(stopped).toEqual([[{ error: "#N/A", message: expect.stringMatching(/^Credits used up/) }]]);
});

test("the estimate counts one search per distinct name, its folded form where it has diacritics, none for bad input", () => {
  const reqs = cellRequests("CUI", [[["Dedeman SRL"], ["DEDEMAN"], ["Făget Construct"], ["SRL"], [""]], null]);
  expect(reqs.map((r) => (r.kind === "list" ? r.list?.fn === "search" && r.list.params.q : null))).toEqual([
    "DEDEMAN",
    "FĂGET CONSTRUCT",
    "FAGET CONSTRUCT",
  ]);
});

test("cache-only (a value preview, firma refresh's write pass): what is cached answers, nothing is sent", async () => {
  const { engine, charged } = setup();
  const [a, b] = alone;
  await evaluate("CUI", [a.denumire], { engine, lang: "en" });
  const m = await evaluate("CUI", [[[a.denumire], [b.denumire]], null], { engine, lang: "en", cacheOnly: true });
  expect(m[0]).toEqual([a.cui]);
  expect(m[1][0]).toMatchObject({ error: "#N/A" });
  expect(charged()).toBe(1);
});
