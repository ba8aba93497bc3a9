/**
 * Rooms a newcomer can find: no file in src/ holds more than 450 lines, so that each holds one idea
 * (docs/architecture.md lists them). The message catalogs too: the add-in's (ro.ts, en.ts) and the
 * Node surfaces' own (node-ro.ts, node-en.ts) are split by who reads them.
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "..", "..");
const SRC = path.join(ROOT, "src");
const MAX_LINES = 450;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

const lines = (file: string) => fs.readFileSync(file, "utf8").replace(/\n$/, "").split("\n").length;

describe("each file holds one idea", () => {
  const files = filesUnder(SRC).map((f) => path.relative(ROOT, f).split(path.sep).join("/"));

  test(`no file in src/ is over ${MAX_LINES} lines`, () => {
    const over = files.map((f) => ({ file: f, lines: lines(path.join(ROOT, f)) })).filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
