/**
 * The functions' metadata per language (scripts/localize-functions.js, texts from src/shared/function-names.ts),
 * made here from the generator's output for src/functions/functions.ts, as the build makes it: each
 * language's file fits Microsoft's schema; both have the same ids, parameters, types and options and
 * differ only in names and descriptions; allowErrorForDataTypeAny is set; the names follow the naming
 * rules. A function or parameter missing from the table fails the build.
 *
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-naming#localize-custom-functions
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json#allowerrorfordatatypeany
 */
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv-draft-04";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { FUNCTION_NAMES, LOAD_SERVICES, functionId } from "../../src/shared/function-ids";
import { FUNCTION_TEXTS, LANGUAGES } from "../../src/shared/function-names";
import { FUNCTIONS_SCHEMA, ROOT } from "./paths";

const localizer = require("../../scripts/localize-functions.js") as {
  localize(generated: Metadata, table: typeof FUNCTION_TEXTS, lang: string): Metadata;
  localizeAll(generated: Metadata, table?: typeof FUNCTION_TEXTS, addinUrl?: string): Record<string, Metadata>;
  check(generated: Metadata, table: typeof FUNCTION_TEXTS): string[];
  loadTable(file?: string, files?: Set<string>): typeof FUNCTION_TEXTS;
  OUTPUTS: Record<string, string>;
  LINKED_OUTPUTS: Record<string, string>;
};

interface Parameter {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: string;
  optional?: boolean;
}
interface Fn {
  id: string;
  name: string;
  helpUrl?: string;
  description?: string;
  parameters: Parameter[];
  options?: Record<string, boolean>;
  result: Record<string, string>;
}
interface Metadata {
  functions: Fn[];
  allowErrorForDataTypeAny?: boolean;
  allowCustomDataForDataTypeAny?: boolean;
}

let generated: Metadata;
let files: Record<string, Metadata>;

beforeAll(async () => {
  const result = await generateCustomFunctionsMetadata(
    ["functions.ts", "linked-functions.ts"].map((f) => path.join(ROOT, "src", "functions", f)),
    false,
  );
  expect(result.errors).toEqual([]);
  generated = JSON.parse(result.metadataJson);
  files = localizer.localizeAll(generated);
}, 60_000);

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

describe("one metadata file per language", () => {
  test("functions.json is Romanian (the manifest's default), functions-en.json English; the linked edition's files likewise", () => {
    expect(localizer.OUTPUTS).toEqual({ ro: "functions.json", en: "functions-en.json" });
    expect(localizer.LINKED_OUTPUTS).toEqual({ ro: "functions-legate.json", en: "functions-legate-en.json" });
    expect(Object.keys(files).sort()).toEqual(["functions-en.json", "functions-legate-en.json", "functions-legate.json", "functions.json"]);
    expect(files["functions.json"].functions.find((f) => f.id === "DENUMIRE")?.name).toBe("DENUMIRE");
    expect(files["functions-en.json"].functions.find((f) => f.id === "DENUMIRE")?.name).toBe("NAME");
  });

  test.each(["functions.json", "functions-en.json", "functions-legate.json", "functions-legate-en.json"])(
    "%s fits Microsoft's custom-functions schema",
    (file) => {
      if (!fs.existsSync(FUNCTIONS_SCHEMA)) {
        console.log(`functions metadata schema check SKIPPED: ${FUNCTIONS_SCHEMA} not found (the shared folder is absent).`);
        return;
      }
      const ajv = new Ajv({ strict: false, allErrors: true });
      const validate = ajv.compile(JSON.parse(fs.readFileSync(FUNCTIONS_SCHEMA, "utf8")));
      const ok = validate(files[file]);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    },
  );

  test("the same ids in the same order, and every parameter the same but for its name, description and help page", () => {
    const strip = (m: Metadata) =>
      m.functions.map(({ name: _n, description: _d, helpUrl: _h, parameters, ...rest }) => ({
        ...rest,
        parameters: parameters.map(({ name: _pn, description: _pd, ...p }) => p),
      }));
    const ro = files["functions-legate.json"];
    const en = files["functions-legate-en.json"];
    expect(en.functions.map((f) => f.id)).toEqual(ro.functions.map((f) => f.id));
    expect(en.functions.map((f) => f.parameters.length)).toEqual(ro.functions.map((f) => f.parameters.length));
    expect(strip(en)).toEqual(strip(ro));
    // …and what the generator decided from functions.ts is kept (the linked edition's files hold every function).
    expect(strip(ro)).toEqual(strip(generated));
    // The help page of each language (docs/appsource.md, policy 1120.5.1; test/addin/help-url.test.ts).
    expect(ro.functions.map((f) => f.helpUrl)).toEqual(ro.functions.map((f) => `https://localhost:3000/ajutor.html#${f.id}`));
    expect(en.functions.map((f) => f.helpUrl)).toEqual(en.functions.map((f) => `https://localhost:3000/help.html#${f.id}`));
  });

  test("every function of functions.ts is in the table, and only those", () => {
    expect(Object.keys(FUNCTION_TEXTS).sort()).toEqual(generated.functions.map((f) => f.id).sort());
  });

  test("each file is in its own language: no 'Romanian / English' text left", () => {
    for (const m of Object.values(files)) {
      for (const f of m.functions) {
        expect(f.description).not.toMatch(/ \/ /);
        for (const p of f.parameters) expect(p.description).not.toMatch(/ \/ /);
      }
    }
    const ro = files["functions.json"].functions.find((f) => f.id === "DENUMIRE")!;
    const en = files["functions-en.json"].functions.find((f) => f.id === "DENUMIRE")!;
    expect(ro.description).toBe("Denumirea firmei.");
    expect(en.description).toBe("Company name.");
    expect(en.parameters[0].description).toMatch(/^The company's CUI/);
    const ca = files["functions-en.json"].functions.find((f) => f.id === "CA")!;
    expect(ca.parameters.map((p) => p.name)).toEqual(["cui", "year"]);
  });
});

describe("errors as inputs, data types", () => {
  test("allowErrorForDataTypeAny is true at the top level of every file, and no function option carries it", () => {
    for (const m of Object.values(files)) {
      expect(m.allowErrorForDataTypeAny).toBe(true);
      for (const f of m.functions) expect(Object.keys(f.options ?? {})).not.toContain("allowErrorForDataTypeAny");
    }
  });

  test("it reaches the per-CUI functions: their first parameter is a range of any (any[][])", () => {
    const perCui = generated.functions.filter((f) => f.parameters[0]?.name === "cui" && f.id !== "ISTORIC");
    expect(perCui.length).toBeGreaterThanOrEqual(17);
    for (const f of perCui) expect(f.parameters[0]).toMatchObject({ type: "any", dimensionality: "matrix" });
  });

  test("allowCustomDataForDataTypeAny is true at the top level of every language's file, so FISA's card is a card and cards reach the functions", () => {
    // "To enable data types for custom functions, manually add the allowCustomDataForDataTypeAny
    // property … and set it to true" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts)
    for (const m of Object.values(files)) {
      expect(m.allowCustomDataForDataTypeAny).toBe(true);
      for (const f of m.functions) expect(Object.keys(f.options ?? {})).not.toContain("allowCustomDataForDataTypeAny");
    }
  });

  test("the flag is written even where the generator leaves it out", () => {
    const { allowCustomDataForDataTypeAny: _dropped, ...bare } = generated;
    for (const m of Object.values(localizer.localizeAll(bare))) expect(m.allowCustomDataForDataTypeAny).toBe(true);
  });
});

describe("names", () => {
  // A few of Excel's built-in functions the English names could have taken (custom-functions-naming:
  // avoid an id or name that matches a built-in Excel function in any language).
  const BUILT_IN = ["ADDRESS", "SEARCH", "FIND", "LOOKUP", "VALUE", "TEXT", "FIELDVALUE", "STOCKHISTORY", "CELL", "INFO", "TYPE"];

  test.each([...LANGUAGES])("%s: unique, start with a letter, letters/digits/_/. only, uppercase, not a built-in", (lang) => {
    const names = Object.values(FUNCTION_TEXTS).map((t) => t.name[lang]);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) {
      expect(n).toMatch(/^\p{L}[\p{L}\p{N}_.]*$/u);
      expect(n).toBe(n.toUpperCase());
      expect(BUILT_IN).not.toContain(n);
      if (!(lang === "ro" && n === "CA")) expect(n.length).toBeGreaterThanOrEqual(3); // CA predates the table
    }
  });

  test("the English names chosen for the Romanian ones", () => {
    const en = Object.fromEntries(Object.entries(FUNCTION_TEXTS).map(([id, t]) => [id, t.name.en]));
    expect(en).toMatchObject({
      DENUMIRE: "NAME",
      STARE: "STATUS",
      JUDET: "COUNTY",
      LOCALITATE: "LOCALITY",
      ADRESA: "REGISTERED_ADDRESS",
      CAEN: "CAEN",
      TVA: "VAT",
      NRREG: "REGNO",
      PROFIL: "PROFILE",
      CAMP: "FIELD",
      CIFRA_AFACERI: "REVENUE",
      CA: "TURNOVER",
    });
  });

  test("the Romanian names are the ids (workbooks already use them)", () => {
    for (const [id, t] of Object.entries(FUNCTION_TEXTS)) expect(t.name.ro).toBe(id);
  });
});

describe("the table and functions.ts cannot drift", () => {
  test("the build loads the same table the code imports: the names of function-ids.ts, the texts of function-names.ts", () => {
    const read = new Set<string>();
    expect(localizer.loadTable(undefined, read)).toEqual(FUNCTION_TEXTS);
    expect([...read].map((f) => path.relative(ROOT, f).split(path.sep).join("/"))).toEqual([
      "src/shared/function-names.ts",
      "src/shared/function-ids.ts",
    ]);
    expect(Object.keys(FUNCTION_TEXTS)).toEqual(Object.keys(FUNCTION_NAMES));
    for (const [id, t] of Object.entries(FUNCTION_TEXTS))
      expect([id, t.name]).toEqual([id, FUNCTION_NAMES[id as keyof typeof FUNCTION_NAMES]]);
  });

  test("a function added to functions.ts but not to the table fails, naming it", () => {
    const g = clone(generated);
    g.functions.push({ id: "NOU", name: "NOU", parameters: [], result: { dimensionality: "matrix" } });
    expect(localizer.check(g, FUNCTION_TEXTS)).toEqual([
      "NOU: in functions.ts but not in the table: its names go in src/shared/function-ids.ts, its texts in function-names.ts",
    ]);
    expect(() => localizer.localize(g, FUNCTION_TEXTS, "en")).toThrow(
      /NOU: in functions.ts but not in the table: its names go in src\/shared\/function-ids.ts/,
    );
  });

  test("the texts have one home: functions.ts's JSDoc carries no description, and one written there fails", () => {
    for (const f of generated.functions) {
      expect([f.id, f.description]).toEqual([f.id, undefined]);
      for (const p of f.parameters) expect([f.id, p.name, p.description]).toEqual([f.id, p.name, undefined]);
    }
    const g = clone(generated);
    g.functions.find((f) => f.id === "DENUMIRE")!.description = "Denumirea firmei.";
    g.functions.find((f) => f.id === "CA")!.parameters[1].description = "Anul.";
    expect(localizer.check(g, FUNCTION_TEXTS)).toEqual([
      "DENUMIRE: a description in functions.ts; the texts go in src/shared/function-names.ts only",
      "CA(an): a description in functions.ts; the texts go in src/shared/function-names.ts only",
    ]);
  });

  test("a function only in the table, a parameter added or reordered, a missing text: each is reported", () => {
    const g = clone(generated);
    g.functions = g.functions.filter((f) => f.id !== "JUDETE");
    const ca = g.functions.find((f) => f.id === "CA")!;
    ca.parameters.reverse();
    const camp = g.functions.find((f) => f.id === "CAMP")!;
    camp.parameters.push({ name: "extra", type: "any" });
    const table = clone(FUNCTION_TEXTS) as Record<string, (typeof FUNCTION_TEXTS)[string]>;
    table.STARE.description.en = "";
    table.TOP.name.en = "NAME";
    expect(localizer.check(g, table).sort()).toEqual(
      [
        "CA: parameters are (an, cui) in functions.ts but (cui, an) in names.ts",
        "CAMP: parameters are (cui, camp, an, extra) in functions.ts but (cui, camp, an) in names.ts",
        "JUDETE: in names.ts but not in functions.ts",
        "STARE: no en description",
        "TOP: en name NAME is also DENUMIRE's",
      ].sort(),
    );
  });
});

test("a function name means one function in either language, so a formula read in English Excel finds its id", () => {
  const seen = new Map<string, string>();
  for (const [id, f] of Object.entries(FUNCTION_TEXTS)) {
    for (const name of new Set([id, f.name.ro.toUpperCase(), f.name.en.toUpperCase()])) {
      expect([name, seen.get(name) ?? id]).toEqual([name, id]);
      seen.set(name, id);
      // The load service is no formula: a formula naming it is not read as FIRMA's (LOAD_SERVICES).
      expect(functionId(name.toLowerCase())).toBe(LOAD_SERVICES.includes(id) ? undefined : id);
    }
  }
  expect(functionId("SUM")).toBeUndefined();
});

describe("the linked entity load service (INCARCA_FIRME)", () => {
  const UPSTREAM = FUNCTIONS_SCHEMA.replace(/custom-functions\.schema\.json$/, "upstream/custom-functions.schema.json");

  test("is in both of the linked edition's files, flagged linkedEntityLoadService, named by the naming rules in both languages, with its helpUrl", () => {
    const withHelp = localizer.localizeAll(generated, undefined, "https://firma.example/");
    for (const [file, name, page] of [
      ["functions-legate.json", "INCARCA_FIRME", "ajutor.html"],
      ["functions-legate-en.json", "LOAD_COMPANIES", "help.html"],
    ]) {
      const f = withHelp[file].functions.find((x) => x.id === "INCARCA_FIRME")!;
      expect(f.name).toBe(name);
      expect(f.options).toEqual(expect.objectContaining({ linkedEntityLoadService: true }));
      expect(f.options?.volatile ?? false).toBe(false);
      expect(f.options?.stream ?? false).toBe(false);
      expect(f.parameters.map((p) => p.type ?? "any")).toEqual(["any"]);
      expect((f as Fn & { helpUrl?: string }).helpUrl).toBe(`https://firma.example/${page}#INCARCA_FIRME`);
    }
  });

  test("the default files (manifest.xml's) leave it out, fit the schema Microsoft published (which names no such option), and differ from the linked edition's by it alone", () => {
    for (const f of ["functions.json", "functions-en.json"]) expect(files[f].functions.map((x) => x.id)).not.toContain("INCARCA_FIRME");
    for (const [plain, linked] of [
      ["functions.json", "functions-legate.json"],
      ["functions-en.json", "functions-legate-en.json"],
    ])
      expect({ ...files[linked], functions: files[linked].functions.filter((x) => x.id !== "INCARCA_FIRME") }).toEqual(files[plain]);
    if (!fs.existsSync(UPSTREAM)) return void console.log(`upstream schema check SKIPPED: ${UPSTREAM} not found.`);
    const upstream = JSON.parse(fs.readFileSync(UPSTREAM, "utf8"));
    delete upstream.properties.functions.items.properties.result.required; // empty: draft-04 forbids it (the shared README)
    const options = (m: Metadata) => ({ ...m, allowErrorForDataTypeAny: undefined, allowCustomDataForDataTypeAny: undefined });
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(upstream);
    const optionErrors = (m: Metadata) => {
      validate(JSON.parse(JSON.stringify(options(m))));
      return (validate.errors ?? []).filter((e) => /options/.test(e.instancePath) && e.keyword === "additionalProperties");
    };
    // The 2019 schema refuses the option by name; with the load service left out, no option of FIRMA's is refused.
    expect(optionErrors(files["functions-legate.json"]).map((e) => e.params)).toEqual([{ additionalProperty: "linkedEntityLoadService" }]);
    for (const f of ["functions.json", "functions-en.json"]) expect(optionErrors(files[f])).toEqual([]);
  });
});
