/**
 * The documents describe the product, not how it was built: README.md, every docs/**\/*.md and
 * sandbox/README.md hold no number of this project's tracker and no dated run, and the internal
 * contracts page (now src/api/index.ts's doc comment) is gone and named nowhere.
 *
 * The rules, chosen to have no false positive on what the documents must say:
 *  - A tracker number is "issue 12", "issues 12", "issue #12", "stop 28", "ticket 3", "PR 4" (anywhere,
 *    code included), or a bare "#12" in prose (not preceded by a letter, digit, `/`, `&` or `#`, so an
 *    anchor like `architecture.md#the-tests`, an error like `#N/A` or `office-js#1005` is not one).
 *    Either is allowed when it is another project's: the text before it in the same paragraph names
 *    another project (office-js, Excel-Custom-Functions, `github.com/OfficeDev/`), or it is the text
 *    of a link to that issue on GitHub (`[#1058](https://github.com/OfficeDev/office-js/issues/1058)`).
 *    This project's tracker lives outside the repository, so no link of the documents points to it.
 *  - A dated run is any calendar date in prose: ISO (`2026-11-27`) or written out (`27 November 2026`,
 *    `November 27, 2026`). Dates inside code — a fenced block or an inline `code span`, such as
 *    `firma audit --since 2026-11-01` — are examples of a command's input and are allowed. A year alone
 *    ("in 2024", "a workbook of 2026") is not a date. Prose that needs a date writes it in code or
 *    says it another way.
 *  - Comparisons with an earlier machine or session ("the previous session's machine") are history too.
 * A self-check runs the rules on lines of the old README and on the allowed forms above.
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "..", "..");
const CONTRACTS = ["CONTRACTS", "md"].join(".");

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") ? [] : filesUnder(p, keep);
    return keep(p) ? [p] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");

/** The documents the rules apply to. */
function documents(): string[] {
  const docs = filesUnder(path.join(ROOT, "docs"), (f) => f.endsWith(".md"));
  return [path.join(ROOT, "README.md"), ...docs, path.join(ROOT, "sandbox", "README.md")].filter((f) => fs.existsSync(f));
}

/** The text with fenced code blocks and inline code spans blanked (line numbers and offsets kept). */
function prose(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  let fence: string | null = null;
  const lines = text.split("\n").map((line) => {
    const opens = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opens) {
      fence = opens[1];
      return blank(line);
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null;
      return blank(line);
    }
    return line;
  });
  return lines.join("\n").replace(/(`+)[^`\n]+?\1/g, blank);
}

const OTHER_PROJECT = /office-js|Excel-Custom-Functions|github\.com\/OfficeDev\//i;
const WORDED_TRACKER = /\b(?:issues?|stop|tickets?|PRs?)\s*#?\s*\d+\b/gi;
const BARE_TRACKER = /(?<![\w/&#]|\b(?:issues?|stop|tickets?|PRs?)\s*)#\d+\b/gi;
const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December";
const DATES = [
  /\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/g,
  new RegExp(`\\b\\d{1,2} (?:${MONTHS}) (?:19|20)\\d\\d\\b`, "g"),
  new RegExp(`\\b(?:${MONTHS}) \\d{1,2}, (?:19|20)\\d\\d\\b`, "g"),
];
const HISTORY = /\bprevious (?:session|machine)\b|\bsession's (?:\w+ )?machine\b/gi;

interface Finding {
  line: number;
  rule: "tracker" | "date" | "history";
  text: string;
}

/** Whether the reference at `at` belongs to another project (see the header). */
function otherProjects(text: string, at: number, match: string): boolean {
  const start = text.lastIndexOf("\n\n", at);
  if (OTHER_PROJECT.test(text.slice(start < 0 ? 0 : start, at))) return true;
  const n = /\d+/.exec(match)![0];
  const after = text.slice(at + match.length, at + match.length + 200);
  return new RegExp(`^\\]\\(https://github\\.com/[\\w.-]+/[\\w.-]+/(?:issues|pull)/${n}\\b`).test(after);
}

/** What the rules find in one document's text. */
function findHistory(text: string): Finding[] {
  const plain = prose(text);
  const lineOf = (at: number) => text.slice(0, at).split("\n").length;
  const out: Finding[] = [];
  const scan = (source: string, re: RegExp, rule: Finding["rule"], allowOther: boolean) => {
    for (const m of source.matchAll(re)) {
      if (allowOther && otherProjects(source, m.index!, m[0])) continue;
      out.push({ line: lineOf(m.index!), rule, text: m[0] });
    }
  };
  scan(text, WORDED_TRACKER, "tracker", true);
  scan(plain, BARE_TRACKER, "tracker", true);
  for (const re of DATES) scan(plain, re, "date", false);
  scan(plain, HISTORY, "history", false);
  return out.sort((a, b) => a.line - b.line);
}

describe("the documents are about the product", () => {
  test("the rules find the old README's history and allow other projects' issues and dates in code", () => {
    const old = [
      "and 1,328 MB before issue 22): most of the old peak was garbage",
      "10,000 names take 1,891–1,933 ms, under issue 22's 1.15 × (1.17–1.33 × on the previous",
      "the run of [bench/results.md](bench/results.md), 2026-11-27; 178–235 MB on the previous session's machine",
      "**How long the tests take** (this 2-core machine, 2026-11-27): `.ci/run` in a fresh clone",
      "See issue #12, stop 28, and the fix in #31.",
      "measured on 27 November 2026, and again on November 28, 2026",
    ];
    const found = old.map((line) => findHistory(line).map((f) => f.rule));
    expect(found).toEqual([["tracker"], ["tracker"], ["date", "history"], ["date"], ["tracker", "tracker", "tracker"], ["date", "date"]]);

    const allowed = [
      "(office-js\n[#1058](https://github.com/OfficeDev/office-js/issues/1058): `getItems` froze)",
      "lost in [#2412](https://github.com/OfficeDev/office-js/issues/2412) (its platform not re-checked)",
      "office-js #576 and #3108 show it; Microsoft said in #6545 (2026)",
      "what office.js is known to load (office-js#1005, #1687)",
      "```sh\nfirma audit --since 2026-11-01 --csv audit.csv   # who asked what\n```",
      "| `firma audit --since 2026-11-01 [--user ana]` | who asked what |",
      "[the tests](docs/architecture.md#the-tests); `#N/A`, #VALUE! and #BUSY!; revenue in 2024",
      "the pane's 100 credits; at most 4,096 shards; O19, `&#123;`",
    ];
    expect(allowed.map(findHistory)).toEqual(allowed.map(() => []));
  });

  test.each(documents().map(rel))("%s has no tracker number, dated run or comparison with an earlier session", (file) => {
    const findings = findHistory(fs.readFileSync(path.join(ROOT, file), "utf8"));
    expect(findings.map((f) => `${file}:${f.line} ${f.rule}: ${f.text}`)).toEqual([]);
  });

  test("the internal contracts page is gone, and nothing points to it", () => {
    expect(fs.existsSync(path.join(ROOT, "docs", CONTRACTS))).toBe(false);
    const text = /\.(?:ts|js|mjs|cjs|json|md|xml|html|css|sh|ya?ml)$/;
    const files = [
      ...["src", "test", "docs", "sandbox", "scripts", "bench", "bin", "examples", "assets"].flatMap((d) =>
        filesUnder(path.join(ROOT, d), (f) => text.test(f)),
      ),
      ...fs
        .readdirSync(ROOT)
        .filter((f) => text.test(f))
        .map((f) => path.join(ROOT, f)),
    ]
      // The changelog records the page's removal; this file names it to look for it.
      .filter((f) => !["CHANGELOG.md", "test/architecture/docs.test.ts"].includes(rel(f)));
    const naming = files.filter((f) => fs.readFileSync(f, "utf8").includes(CONTRACTS)).map(rel);
    expect(naming).toEqual([]);
  });
});
