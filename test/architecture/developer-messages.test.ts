/**
 * The layers below the surfaces (src/api, src/engine, src/office) speak to developers and logs: short
 * English, never the user's words in two languages. A surface says the user's words from an error's
 * kind or a catalog key (docs/architecture.md, "Messages"). This reads every string and template
 * literal of those folders and fails on one that holds Romanian text followed by " / " and more text,
 * the two-language form a message used to have.
 */
import { readdirSync, readFileSync } from "fs";
import { join, relative } from "path";

const ROOT = join(__dirname, "..", "..");
const FOLDERS = ["src/api", "src/engine", "src/office"];
const ROMANIAN = /[ăâîșțşţĂÂÎȘȚŞŢ]/;
const LITERAL = /"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The literals of a source that read as one message in two languages ("ro … / en …"). */
export function twoLanguageLiterals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  return (code.match(LITERAL) ?? []).filter((lit) => ROMANIAN.test(lit) && / \/ \S/.test(lit));
}

test("the check finds the form it looks for, and not a path or a plain English message", () => {
  expect(twoLanguageLiterals('throw new Error("Cheia nu e validă. / The key is not valid.");')).toHaveLength(1);
  expect(twoLanguageLiterals("const m = `Bugetul actualizării: ${n} credite / This refresh: ${n} credits`;")).toHaveLength(1);
  expect(twoLanguageLiterals('throw new Error("Invalid API key"); const p = "a / b";')).toEqual([]);
});

test("no message in src/api, src/engine or src/office is written in two languages", () => {
  const found = FOLDERS.flatMap((f) => files(join(ROOT, f))).flatMap((file) =>
    twoLanguageLiterals(readFileSync(file, "utf8")).map((lit) => `${relative(ROOT, file)}: ${lit.slice(0, 80)}`),
  );
  expect(found).toEqual([]);
});
