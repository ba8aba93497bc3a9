/**
 * docs/architecture.md says where each change goes: it must name only files and folders that exist.
 * Every `backticked` path (src/…, test/…, sandbox/…, bench/…, scripts/…, bin/…, docs/…) must exist as
 * written; every backticked bare file name (engine.ts, blocks.ts…) must be the name of a file in the
 * project's own folders; a path written from inside a layer (`sheet/formula.ts`) must end a project file's
 * path; what the build writes (`shared.js`) must be named in webpack.config.js.
 */
import { existsSync, readdirSync, readFileSync } from "fs";
import { join, relative } from "path";

const ROOT = join(__dirname, "..", "..");
const DOC = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
const WEBPACK = readFileSync(join(ROOT, "webpack.config.js"), "utf8");
const FOLDERS = ["src", "test", "sandbox", "bench", "scripts", "bin", "docs", "assets", "examples"];
const FILE = /\.(ts|js|mjs|cjs|json|md|xml|html|css|sh)$/;

function walk(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(relative(ROOT, p).split("\\").join("/"));
  }
  return out;
}

const files = FOLDERS.flatMap((f) => walk(join(ROOT, f), []));
const rootFiles = readdirSync(ROOT).filter((f) => FILE.test(f));
const basenames = new Set([...files.map((f) => f.replace(/^.*\//, "")), ...rootFiles]);

/** The backticked tokens of the document that name a file or a folder, with the text around them. */
function named(): { token: string; context: string }[] {
  const out: { token: string; context: string }[] = [];
  const blocks = DOC.split(/\n(?=\|)|\n\n/);
  for (const block of blocks) {
    for (const m of block.matchAll(/`([^`\s]+)`/g)) {
      const token = m[1].replace(/[:#].*$/, "").replace(/[),.;]+$/, "");
      if (FILE.test(token) || /^(src|test|sandbox|bench|scripts|bin|docs)\//.test(token)) out.push({ token, context: block });
    }
  }
  return out;
}

test("the document names files (the check is not vacuous)", () => {
  expect(named().length).toBeGreaterThan(50);
});

test("every path it names exists", () => {
  const missing = named()
    .map((n) => n.token)
    .filter((t) => t.includes("/") && !/[*{}<>]/.test(t))
    .filter((t) => !existsSync(join(ROOT, t.replace(/\/$/, ""))))
    // a path inside a layer, written from that layer (`sheet/formula.ts` in src/shared's row)
    .filter((t) => !files.some((f) => f.endsWith("/" + t.replace(/\/$/, "")) || f.includes("/" + t.replace(/\/?$/, "/"))));
  expect([...new Set(missing)]).toEqual([]);
});

test("every bare file name it names is a file of the project", () => {
  const missing = named()
    .map((n) => n.token)
    .filter((t) => !t.includes("/") && FILE.test(t) && !/[*{}<>]/.test(t))
    .filter((t) => !basenames.has(t))
    // what the build writes (runtime.js, shared.js…): named in webpack.config.js
    .filter((t) => !WEBPACK.includes(t.replace(/\.js$/, "")));
  expect([...new Set(missing)]).toEqual([]);
});
