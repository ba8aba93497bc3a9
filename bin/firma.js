#!/usr/bin/env node
// `npx firma …`: runs the CLI's TypeScript sources through tsx (a dependency), so the command
// and the add-in share one engine and one set of functions with no separate build step.
require("tsx/cjs");
require("../src/cli/main.ts")
  .main(process.argv.slice(2))
  .then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`${(e && e.stack) || e}\n`);
      process.exitCode = 1;
    },
  );
