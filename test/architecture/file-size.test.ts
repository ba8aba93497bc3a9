/**
 * Rooms a newcomer can find: no file in src/ holds more than 450 lines, so that each holds one idea
 * (docs/architecture.md lists them). The message catalogs are the exception: one key per line, both
 * languages under the same keys, and a test that fails on a missing one (test/shared/messages.test.ts).
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "..", "..");
const SRC = path.join(ROOT, "src");
const MAX_LINES = 450;
const CATALOGS = /^src\/shared\/messages\/[a-z]{2}\.ts$/;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

const lines = (file: string) => fs.readFileSync(file, "utf8").replace(/\n$/, "").split("\n").length;

describe("each file holds one idea", () => {
  const files = filesUnder(SRC).map((f) => path.relative(ROOT, f).split(path.sep).join("/"));

  test(`no file in src/ but the message catalogs is over ${MAX_LINES} lines`, () => {
    const over = files
      .filter((f) => !CATALOGS.test(f))
      .map((f) => ({ file: f, lines: lines(path.join(ROOT, f)) }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });

  test("the exception covers the catalogs only, and they are there", () => {
    expect(files.filter((f) => CATALOGS.test(f)).sort()).toEqual(["src/shared/messages/en.ts", "src/shared/messages/ro.ts"]);
  });
});
