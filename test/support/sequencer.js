/**
 * The order Jest starts the test files in. With two workers the run ends when the later of the two
 * ends, so the longest files must start first. Jest orders by the durations it remembers from the
 * last run, and without them (a fresh clone: CI) by file size — which puts test/cli/scale.test.ts (65
 * lines, over a minute) near the end, where it ran alone while the other worker sat idle. So the files
 * known to take longest (measured, in this order) start first; then Jest's own order.
 *
 * Plain JavaScript: Jest loads it before anything is transformed.
 */
const Sequencer = require("@jest/test-sequencer").default;

/** Paths under test/, longest first (Jest 30, 2 cores: each 20 s and more in one run). */
const LONGEST = [
  "taskpane/flows.browser.test.ts",
  "taskpane/pane.browser.test.ts",
  "cli/scale.test.ts",
  "taskpane/indexeddb.browser.test.ts",
  "server/custody-restart.test.ts",
  "taskpane/credits.browser.test.ts",
  "taskpane/sheets.test.ts",
  "server/serve.browser.test.ts",
  "server/firm-pane.browser.test.ts",
  "cli/refresh.test.ts",
  "faults/fault-matrix.test.ts",
  "cli/sqlite-store.test.ts",
  "cli/libreoffice.test.ts",
  "server/firm-store.test.ts",
];

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (t) => {
      const i = LONGEST.findIndex((p) => t.path.replace(/\\/g, "/").endsWith(`/test/${p}`));
      return i < 0 ? LONGEST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep Jest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongestFirst;
