/**
 * Every function id and name, Romanian and English, against the rules of Microsoft's naming page
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-naming, "Custom functions
 * naming guidelines"), with its one exception named: FIRMA.CA (the id and the Romanian name, two
 * characters) stays, because people asked for =FIRMA.CA and workbooks use it; FIRMA.CIFRA_AFACERI is
 * its twin that follows the rules (docs/excel.md, "AppSource"). The table: src/shared/function-names.ts,
 * the functions: src/shared/function-table.ts.
 *
 * The page's rules, as tested here:
 *  - "Both must start with a letter and be at least three characters."
 *  - "id: Only A–Z, 0–9, underscore, and period characters are allowed."
 *  - "name: Any Unicode alphabetic characters, underscore, and period characters are allowed."
 *  - "Use uppercase for your custom functions" (Excel shows built-in names in uppercase).
 *  - Avoid names that match "A cell reference (A1 to XFD1048576 or R1C1 to R1048576C16384)" or an Excel
 *    4.0 macro function "(such as RUN, ECHO)": the two the page names are checked; its full list is a
 *    separate reference document this test does not hold.
 *  - A name that conflicts with another add-in's shows #REF!: names are unique within a language, and
 *    every name sits in the FIRMA namespace (=FIRMA.<name>), the page's "short vendor prefix".
 */
import { LOAD_SERVICES } from "../../src/shared/function-ids";
import { FUNCTION_TEXTS, LANGUAGES } from "../../src/shared/function-names";
import { FUNCTIONS } from "../../src/shared/function-table";

/** The one documented exception (id and Romanian name). */
const EXCEPTION = "CA";

const startsAndLength = (s: string) => /^\p{L}/u.test(s) && [...s].length >= 3;
const ID_CHARS = /^[A-Z0-9_.]+$/;
const NAME_CHARS = /^[\p{L}_.]+$/u;

/** Column letters to a number (A → 1, XFD → 16384). */
const column = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
/** Whether `s` is a cell reference Excel would read first: A1 … XFD1048576, or R1C1 … R1048576C16384. */
function isCellReference(s: string): boolean {
  const u = s.toUpperCase();
  const a1 = /^([A-Z]{1,3})(\d+)$/.exec(u);
  if (a1) return column(a1[1]) <= 16384 && Number(a1[2]) >= 1 && Number(a1[2]) <= 1048576;
  const r1c1 = /^R(\d+)C(\d+)$/.exec(u);
  return !!r1c1 && Number(r1c1[1]) >= 1 && Number(r1c1[1]) <= 1048576 && Number(r1c1[2]) >= 1 && Number(r1c1[2]) <= 16384;
}
const MACRO_NAMES_ON_THE_PAGE = ["RUN", "ECHO"];

/** What breaks the page's rules for one id or name ([] when nothing). */
function problems(s: string, kind: "id" | "name"): string[] {
  const out: string[] = [];
  if (!startsAndLength(s)) out.push("must start with a letter and be at least three characters");
  if (!(kind === "id" ? ID_CHARS : NAME_CHARS).test(s)) out.push(kind === "id" ? "only A–Z, 0–9, _ and ." : "only letters, _ and .");
  if (s !== s.toUpperCase()) out.push("uppercase");
  if (isCellReference(s)) out.push("matches a cell reference");
  if (MACRO_NAMES_ON_THE_PAGE.includes(s.toUpperCase())) out.push("an Excel 4.0 macro function");
  return out;
}

test("the checks catch what the page forbids (so that a pass means something)", () => {
  expect(problems("CA", "id")).toEqual(["must start with a letter and be at least three characters"]);
  expect(problems("1ST", "id")).toContain("must start with a letter and be at least three characters");
  expect(problems("NAME-X", "id")).toEqual(["only A–Z, 0–9, _ and ."]);
  expect(problems("CIFRĂ", "id")).toEqual(["only A–Z, 0–9, _ and ."]);
  expect(problems("CIFRĂ", "name")).toEqual([]);
  expect(problems("TOP10", "name")).toEqual(["only letters, _ and .", "matches a cell reference"]); // column TOP, row 10
  expect(problems("TOPS", "name")).toEqual([]);
  expect(problems("Denumire", "name")).toEqual(["uppercase"]);
  expect(problems("ABC1", "id")).toEqual(["matches a cell reference"]);
  expect(problems("XFD1048576", "id")).toEqual(["matches a cell reference"]);
  expect(problems("XFE1", "id")).toEqual([]); // past the last column
  expect(problems("R1C1", "id")).toEqual(["matches a cell reference"]);
  expect(problems("ECHO", "name")).toEqual(["an Excel 4.0 macro function"]);
});

test("the table and the functions are the same set of ids (the load service aside: Excel calls it, not a formula)", () => {
  expect(LOAD_SERVICES).toEqual(["INCARCA_FIRME"]);
  expect(
    Object.keys(FUNCTION_TEXTS)
      .filter((id) => !LOAD_SERVICES.includes(id))
      .sort(),
  ).toEqual(Object.keys(FUNCTIONS).sort());
  expect(Object.keys(FUNCTIONS)).not.toContain("INCARCA_FIRME");
});

describe.each(Object.keys(FUNCTION_TEXTS).map((id) => [id]))("%s", (id) => {
  test("its id follows the naming page (CA: the one documented exception)", () => {
    expect([id, problems(id, "id")]).toEqual([id, id === EXCEPTION ? ["must start with a letter and be at least three characters"] : []]);
  });
  test.each(LANGUAGES.map((l) => [l]))("its %s name follows the naming page", (lang) => {
    const name = FUNCTION_TEXTS[id].name[lang];
    const expected = id === EXCEPTION && lang === "ro" ? ["must start with a letter and be at least three characters"] : [];
    expect([name, problems(name, "name")]).toEqual([name, expected]);
  });
});

test("CA is the only exception, and its twin CIFRA_AFACERI takes the same arguments under names that follow the rules", () => {
  const breaking = Object.entries(FUNCTION_TEXTS).flatMap(([id, t]) => [
    ...(problems(id, "id").length ? [`id ${id}`] : []),
    ...LANGUAGES.filter((l) => problems(t.name[l], "name").length).map((l) => `${l} ${t.name[l]}`),
  ]);
  expect(breaking).toEqual(["id CA", "ro CA"]);
  expect(FUNCTION_TEXTS.CIFRA_AFACERI.parameters.map((p) => p.id)).toEqual(FUNCTION_TEXTS.CA.parameters.map((p) => p.id));
});

test.each(LANGUAGES.map((l) => [l]))("%s: no two functions share a name", (lang) => {
  const names = Object.values(FUNCTION_TEXTS).map((t) => t.name[lang]);
  expect(new Set(names).size).toBe(names.length);
});
