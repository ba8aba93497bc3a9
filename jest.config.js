/**
 * Jest: two projects, TypeScript through ts-jest (isolatedModules for speed; `npm run typecheck` does the types).
 *  - fast: the logic in Node, no build, browser, LibreOffice or child process: `npm run test:fast`, a
 *    developer's loop;
 *  - slow: what needs the built add-in (made once per run by the globalSetup, test/support/builds.js),
 *    Chromium, LibreOffice, a child process, or a large sheet.
 * `npm test` runs both.
 */
const SLOW = [
  "<rootDir>/test/addin/build.test.ts",
  "<rootDir>/test/addin/help-url.test.ts",
  "<rootDir>/test/addin/package.test.ts",
  "<rootDir>/test/addin/pane-browser.test.ts",
  "<rootDir>/test/architecture/layers.test.ts",
  "<rootDir>/test/cli/csv-formula-text.test.ts",
  "<rootDir>/test/cli/libreoffice.test.ts",
  "<rootDir>/test/cli/match-libreoffice.test.ts",
  "<rootDir>/test/cli/outcomes.test.ts",
  "<rootDir>/test/cli/plain-copies.test.ts",
  "<rootDir>/test/cli/refresh.test.ts",
  "<rootDir>/test/cli/scale.test.ts",
  "<rootDir>/test/faults/cancellation.test.ts",
  "<rootDir>/test/functions/functions.test.ts",
  "<rootDir>/test/functions/linked-service.test.ts",
  "<rootDir>/test/functions/pending-heap.test.ts",
  "<rootDir>/test/functions/preview-and-cards.test.ts",
  "<rootDir>/test/input/bad-input.test.ts",
  "<rootDir>/test/office/reopen-indexeddb.test.ts",
  "<rootDir>/test/sandbox/startup.test.ts",
  "<rootDir>/test/security/**/*.test.ts",
  "<rootDir>/test/server/**/*.test.ts",
  "<rootDir>/test/support/excel-runtime.test.ts",
  "<rootDir>/test/taskpane/**/*.browser.test.ts",
  "<rootDir>/test/taskpane/sheets.test.ts",
];

const common = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  transform: {
    "^.+\\.[tj]sx?$": ["ts-jest", { tsconfig: { module: "commonjs", allowJs: true, isolatedModules: true } }],
  },
  // office-addin-mock's dependencies ship as ESM: let ts-jest transform them;
  // Fastify's cookie and content-disposition too (Node 20.19+ requires ESM natively; Jest 30 on Node 20 does not).
  transformIgnorePatterns: [
    "/node_modules/(?!(office-addin-mock|office-addin-manifest|@microsoft/office-js|(?:(?:@[^/]+/)?[^/]+/node_modules/)?(?:cookie|content-disposition))/)",
  ],
};

module.exports = {
  // Run-wide options: Jest ignores them inside a project.
  testTimeout: 30000,
  // Three workers, also on two cores (Jest's default there is one, in band): the slow project's files
  // spend most of their time waiting on Chromium, LibreOffice, PostgreSQL, child processes and the
  // sandbox's latency. The whole run on one machine: three workers kept 1.16 cores busy and took
  // 585-600 s; four took 482-590 s, and the timing tests that need a page or a governor fed at
  // full speed (test/server/http2*.test.ts) failed in two runs of four; five, 536 s with four
  // timing tests failed. Each worker is its own process: a file's heap goes with its worker, not into
  // the files after it.
  maxWorkers: 3,
  // A worker that holds more than this after a file is replaced by a fresh one: a safety net. The files
  // with the largest sheets leave far less behind (Jest's --logHeapUsage: test/taskpane/sheets.test.ts
  // 387 MB, test/cli/scale.test.ts 219 MB).
  workerIdleMemoryLimit: "1536MB",
  // Longest files first (test/support/sequencer.js): the run ends when its last file does.
  testSequencer: "<rootDir>/test/support/sequencer.js",
  projects: [
    {
      ...common,
      displayName: "fast",
      testMatch: ["<rootDir>/test/**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", ...SLOW.map(toPattern)],
    },
    {
      ...common,
      displayName: "slow",
      testMatch: SLOW,
      globalSetup: "<rootDir>/test/support/global-setup.js",
    },
  ],
};

/** A testMatch glob as the regular expression testPathIgnorePatterns takes. */
function toPattern(glob) {
  return glob
    .replace("<rootDir>", "")
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\/\*\*\//g, "/(.*/)?")
    .replace(/\*/g, "[^/]*");
}
