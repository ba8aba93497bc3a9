/**
 * Writes the browser copy of test/support/excel-rules.ts into test/taskpane/excel-standin.js, between its
 * "excel-rules" markers: the module transpiled by TypeScript (no types, CommonJS) and wrapped so that it
 * defines one `RULES` object in the stand-in's scope. The copy is generated, never edited by hand:
 * test/support/excel-runtime.test.ts fails when it differs from what this makes.
 *
 *   node test/support/excel-rules-gen.js          write the copy
 *   node test/support/excel-rules-gen.js --check  exit 1 if the copy is out of date
 *
 * Plain JavaScript, so that it runs without a build.
 */
const fs = require("fs");
const path = require("path");
const ts = require("typescript");
const prettier = require("prettier");

const SOURCE = path.join(__dirname, "excel-rules.ts");
const STANDIN = path.join(__dirname, "..", "taskpane", "excel-standin.js");
const BEGIN = "  // ---- excel-rules: generated from test/support/excel-rules.ts by test/support/excel-rules-gen.js; do not edit ----";
const END = "  // ---- end of excel-rules ----";

/** The block the stand-in carries: RULES, the module's exports. */
function generated() {
  const js = ts.transpileModule(fs.readFileSync(SOURCE, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, removeComments: false },
  }).outputText;
  const body = js
    .replace(/^"use strict";\n/, "")
    .replace(/^Object\.defineProperty\(exports, "__esModule".*\n/m, "")
    .replace(/^exports\.[\w$]+ = (?:exports\.[\w$]+ = )*void 0;\n/gm, "")
    .trimEnd();
  const indented = body
    .split("\n")
    .map((l) => (l === "" ? l : `    ${l}`))
    .join("\n");
  return `${BEGIN}\n  const RULES = (() => {\n    const exports = {};\n${indented}\n    return exports;\n  })();\n${END}`;
}

/** The stand-in's text with the block replaced by `block`. */
function withBlock(text, block) {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${STANDIN} has no excel-rules markers`);
  return text.slice(0, a) + block + text.slice(b + END.length);
}

/** The stand-in's text with the generated block, formatted as the project's Prettier formats it. */
async function regenerated(text) {
  const options = (await prettier.resolveConfig(STANDIN)) || {};
  const block = await prettier.format(withBlock(text, generated()), { ...options, filepath: STANDIN });
  return block;
}

/** Whether the stand-in's copy is what the generator makes. */
async function upToDate() {
  const text = fs.readFileSync(STANDIN, "utf8");
  return (await regenerated(text)) === text;
}

module.exports = { generated, upToDate, STANDIN };

if (require.main === module) {
  (async () => {
    if (process.argv.includes("--check")) {
      if (!(await upToDate())) {
        console.error("test/taskpane/excel-standin.js: its excel-rules block is out of date; run node test/support/excel-rules-gen.js");
        process.exit(1);
      }
    } else {
      fs.writeFileSync(STANDIN, await regenerated(fs.readFileSync(STANDIN, "utf8")));
    }
  })();
}
