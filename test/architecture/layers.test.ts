/**
 * The layers of docs/architecture.md, checked twice: the import graph of src/ and sandbox/ as the
 * TypeScript compiler sees it (every relative import, by folder) has no edge that runs back up or
 * across surfaces; and `npm run lint`'s rules (eslint.config.mjs) reject such an edge and Office
 * globals below the Office surfaces — shown on files written for the test. Both read one map of the
 * layers, scripts/layers.js.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { execFileSync } from "child_process";

const ROOT = path.resolve(__dirname, "../..");

/** Layer of a file: src/<folder>, or "sandbox". */
function layerOf(file: string): string | null {
  const rel = path.relative(ROOT, file).split(path.sep);
  // src/<folder>/… or the folder itself (an import of "../api" is its index)
  if (rel[0] === "src" && rel.length >= 2 && (rel.length > 2 || !rel[1].includes("."))) return rel[1];
  if (rel[0] === "sandbox") return "sandbox";
  if (rel[0] === "src") return "src";
  return rel[0];
}

/** What each layer may import (besides itself): the map `npm run lint` enforces too. */
const { MAY_IMPORT } = require("../../scripts/layers") as { MAY_IMPORT: Record<string, string[]> };

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** Every relative import edge of src/ and sandbox/: { from, to, fromLayer, toLayer }. */
function importGraph() {
  const edges: { from: string; to: string; fromLayer: string; toLayer: string }[] = [];
  for (const file of [...walk(path.join(ROOT, "src")), ...walk(path.join(ROOT, "sandbox"))]) {
    if (file.endsWith(".test.ts")) continue;
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    for (const imp of info.importedFiles) {
      if (!imp.fileName.startsWith(".")) continue;
      const to = path.resolve(path.dirname(file), imp.fileName);
      const fromLayer = layerOf(file)!;
      const toLayer = layerOf(to)!;
      if (fromLayer !== toLayer) edges.push({ from: path.relative(ROOT, file), to: path.relative(ROOT, to), fromLayer, toLayer });
    }
  }
  return edges;
}

describe("the import graph follows the layers", () => {
  const edges = importGraph();

  test("the graph is not empty (the parser sees the imports)", () => {
    expect(edges.some((e) => e.fromLayer === "engine" && e.toLayer === "api")).toBe(true);
    expect(edges.some((e) => e.fromLayer === "cli" && e.toLayer === "shared")).toBe(true);
    expect(edges.some((e) => e.fromLayer === "functions" && e.toLayer === "shared")).toBe(true);
  });

  test("no edge runs back up or across surfaces", () => {
    const bad = edges.filter((e) => !(MAY_IMPORT[e.fromLayer] ?? []).includes(e.toLayer)).map((e) => `${e.from} → ${e.to}`);
    expect(bad).toEqual([]);
  });

  test("every folder of src/ is a known layer", () => {
    const folders = fs
      .readdirSync(path.join(ROOT, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(
      Object.keys(MAY_IMPORT)
        .filter((l) => l !== "sandbox")
        .sort(),
    );
  });

  test("docs/architecture.md names every layer and its allowed imports", () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    for (const layer of Object.keys(MAY_IMPORT)) expect(doc).toContain(layer === "sandbox" ? "`sandbox/`" : `\`src/${layer}\``);
  });
});

describe("npm run lint enforces the layers", () => {
  const CASES: [string, string][] = [
    ["src/api/x.ts", 'import { FirmaEngine } from "../engine/engine";\nexport const e = FirmaEngine;\n'],
    ["src/engine/x.ts", 'import { getSettings } from "../shared/settings";\nexport const s = getSettings;\n'],
    ["src/functions/x.ts", 'import { ExcelWorkbook } from "../taskpane/excel";\nexport const w = ExcelWorkbook;\n'],
    ["src/taskpane/x.ts", 'import { runRefresh } from "../cli/refresh";\nexport const r = runRefresh;\n'],
    ["src/cli/x.ts", 'import { evaluate } from "../functions/functions";\nexport const f = evaluate;\n'],
    ["src/engine/x.ts", 'import { startSandbox } from "../../sandbox/server";\nexport const s = startSandbox;\n'],
    ["src/server/x.ts", 'import { main } from "../cli/main";\nexport const m = main;\n'],
    ["src/server/x.ts", 'import { startSandbox } from "../../sandbox/server";\nexport const s = startSandbox;\n'],
    ["src/cli/x.ts", 'import { serve } from "../server/main";\nexport const s = serve;\n'],
    ["sandbox/x.ts", 'import { serve } from "../src/server/main";\nexport const s = serve;\n'],
  ];
  const OFFICE = ["src/api/x.ts", "src/engine/x.ts", "src/shared/x.ts", "src/cli/x.ts", "src/server/x.ts"];
  const GOOD: [string, string][] = [
    ["src/engine/x.ts", 'import { FirmaClient } from "../api";\nexport const c = FirmaClient;\n'],
    [
      "src/taskpane/x.ts",
      'import { getEngine } from "../shared/engine-instance";\nexport const ready = () => Office.onReady(getEngine);\n',
    ],
  ];
  const all = [...CASES, ...OFFICE.map((f) => [f, "export const ready = () => Office.onReady();\n"] as [string, string]), ...GOOD];

  /** The rule ids ESLint reports for each snippet, linted as if it were that file, with the project's config (one ESLint process). */
  let results: string[][];
  beforeAll(() => {
    const script = `
      const { ESLint } = require("eslint");
      const cases = JSON.parse(process.argv[1]);
      (async () => {
        const eslint = new ESLint({ cwd: process.cwd() });
        const out = [];
        for (const [file, code] of cases) {
          const [r] = await eslint.lintText(code, { filePath: require("path").resolve(file) });
          out.push(r.messages.map((m) => m.ruleId));
        }
        process.stdout.write(JSON.stringify(out));
      })();`;
    results = JSON.parse(execFileSync(process.execPath, ["-e", script, JSON.stringify(all)], { cwd: ROOT, encoding: "utf8" }));
  }, 60_000);

  test.each(CASES.map(([f], i) => [f, i] as const))("%s: an import that runs back up or across is an error", (_f, i) => {
    expect(results[i]).toContain("no-restricted-imports");
  });

  test.each(OFFICE.map((f, i) => [f, CASES.length + i] as const))("%s: an Office global is an error", (_f, i) => {
    expect(results[i]).toContain("no-restricted-globals");
  });

  test("downward imports, and Office in the Office surfaces, pass", () => {
    expect(results.slice(CASES.length + OFFICE.length)).toEqual([[], []]);
  });
});
