/**
 * The pane's Help lists exactly the functions the add-in registers, with the parameters their
 * JSDoc declares (the registration's source) and an example that is one call of that function.
 */
import * as fs from "fs";
import * as path from "path";
import { analyzeFormula } from "../../src/shared/sheet/formula";
import { FUNCTIONS } from "../../src/shared/evaluate";
import { LOAD_SERVICES } from "../../src/shared/function-ids";
import { FUNCTION_TEXTS } from "../../src/shared/function-names";
import { FUNCTION_HELP, listSeparator, localized, syntaxOf } from "../../src/taskpane/help";

/** @customfunction NAME and its @param lines (without the invocation), from functions.ts and linked-functions.ts. */
function declared(): Map<string, string[]> {
  const src = ["functions.ts", "linked-functions.ts"]
    .map((f) => fs.readFileSync(path.resolve(__dirname, "../../src/functions", f), "utf8"))
    .join("\n");
  const out = new Map<string, string[]>();
  for (const block of src.split("/**").slice(1)) {
    const name = /@customfunction\s+(\w+)/.exec(block)?.[1];
    if (!name) continue;
    const params = [...block.matchAll(/@param\s+(\[?\w+\]?)/g)].map((m) => m[1]).filter((p) => p !== "invocation");
    // Excel shows each parameter under its Romanian name from the one table (names.ts), not its JSDoc id.
    const texts = FUNCTION_TEXTS[name]?.parameters ?? [];
    out.set(
      name,
      params.map((p) => {
        const optional = p.startsWith("[");
        const id = p.replace(/[[\]]/g, "");
        const ro = texts.find((t) => t.id === id)?.name.ro ?? id;
        return optional ? `[${ro}]` : ro;
      }),
    );
  }
  return out;
}

test("Help covers every registered function, and nothing else", () => {
  const names = FUNCTION_HELP.map((f) => f.name).sort();
  expect(names).toEqual(Object.keys(FUNCTIONS).sort());
  // The linked entity load service is registered too, but Excel calls it: it is no formula to help with.
  expect(names).toEqual([...declared().keys()].filter((id) => !LOAD_SERVICES.includes(id)).sort());
  expect([...declared().keys()]).toContain("INCARCA_FIRME");
});

test("the parameters shown are the ones the registration declares", () => {
  const decl = declared();
  for (const f of FUNCTION_HELP) expect({ name: f.name, params: f.params }).toEqual({ name: f.name, params: decl.get(f.name) });
});

test("each function has a description in both languages, the one Excel shows (src/shared/function-names.ts)", () => {
  for (const f of FUNCTION_HELP) {
    const { ro, en } = FUNCTION_TEXTS[f.name].description;
    expect({ f: f.name, ro: ro.length > 10, en: en.length > 10 }).toEqual({ f: f.name, ro: true, en: true });
  }
});

test("each example is one call of its function, with no more arguments than it takes", () => {
  for (const f of FUNCTION_HELP) {
    const a = analyzeFormula(f.example, "FIRMA");
    expect(a.kind).toBe("call");
    if (a.kind !== "call") continue;
    expect(a.call.name).toBe(f.name);
    expect(a.call.args.length).toBeLessThanOrEqual(f.params.length);
    expect(a.call.args.length).toBeGreaterThanOrEqual(f.params.filter((p) => !p.startsWith("[")).length);
  }
});

test("syntax is written as Excel shows it", () => {
  expect(syntaxOf(FUNCTION_HELP.find((f) => f.name === "CA")!)).toBe("=FIRMA.CA(cui, [an])");
  expect(syntaxOf(FUNCTION_HELP.find((f) => f.name === "JUDETE")!)).toBe("=FIRMA.JUDETE()");
});

describe("in the pane's language", () => {
  const ca = FUNCTION_HELP.find((f) => f.name === "CAMP")!;

  test("Romanian: Romanian names and ';' between arguments, as a Romanian Excel needs", () => {
    expect(syntaxOf(ca, "ro")).toBe("=FIRMA.CAMP(cui; camp; [an])");
    expect(localized(ca, "ro").example).toBe('=FIRMA.CAMP(A2; "numar_angajati"; 2023)');
  });

  test("English: English function and parameter names and ','", () => {
    expect(
      syntaxOf(
        FUNCTION_HELP.find((f) => f.name === "CA")!,
        "en",
      ),
    ).toBe("=FIRMA.TURNOVER(cui, [year])");
    expect(
      localized(
        FUNCTION_HELP.find((f) => f.name === "DENUMIRE")!,
        "en",
      ).example,
    ).toBe("=FIRMA.NAME(14399840)");
  });

  test("every example, in either language, is one call of its function once the separator is ','", () => {
    for (const lang of ["ro", "en"] as const)
      for (const f of FUNCTION_HELP) {
        const ex = localized(f, lang).example;
        expect(ex.startsWith(`=FIRMA.${FUNCTION_TEXTS[f.name].name[lang]}(`)).toBe(true);
        if (lang === "ro") expect(ex.includes(",") && !/"[^"]*,[^"]*"/.test(ex)).toBe(false);
        // Back to the en-US form Excel's API gives (","), the example parses as the same call.
        let plain = "";
        let inText = false;
        for (const ch of ex) {
          if (ch === '"') inText = !inText;
          plain += !inText && ch === listSeparator(lang) ? "," : ch;
        }
        const a = analyzeFormula(plain, "FIRMA");
        const original = analyzeFormula(f.example, "FIRMA");
        expect(a.kind === "call" && original.kind === "call" && a.call.args.length === original.call.args.length).toBe(true);
      }
  });
});
