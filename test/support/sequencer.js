/**
 * The order Jest starts the test files in. The run ends when the last of its workers ends, so the
 * longest files must start first. Jest orders by the durations it remembers from the last run, and
 * without them (a fresh clone: CI) by file size — which can put a short file that runs for a minute
 * near the end, where it runs alone while the other workers sit idle. So the files known to take
 * longest (measured, in this order) start first; then Jest's own order.
 *
 * Plain JavaScript: Jest loads it before anything is transformed.
 */
const Sequencer = require("@jest/test-sequencer").default;

/** Paths under test/, longest first (Jest 30, 2 cores, three workers: each 20 s and more in one run of CI). */
const LONGEST = [
  "taskpane/pane.browser.test.ts",
  "taskpane/flows.browser.test.ts",
  "server/custody-restart.test.ts",
  "shared/linked-company.test.ts",
  "taskpane/indexeddb.browser.test.ts",
  "taskpane/sheets.test.ts",
  "faults/fault-matrix.test.ts",
  "server/faults-postgres.test.ts",
  "server/serve.browser.test.ts",
  "engine/cache.test.ts",
  "server/load.test.ts",
  "cli/sqlite-store.test.ts",
  "taskpane/credits.browser.test.ts",
  "taskpane/linked.browser.test.ts",
  "server/firm-pane.browser.test.ts",
  "server/shared-queue.test.ts",
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
