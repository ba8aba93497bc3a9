#!/usr/bin/env node
// `npx firma …`: runs the TypeScript sources through tsx (a dependency), so the command and the
// add-in share one engine and one set of functions with no separate build step.
//   firma refresh …   src/cli (the workbook without Excel)
//   firma match …     src/cli (names to CUIs without Excel)
//   firma serve …     src/server (the add-in's own server and API relay); `--sandbox` starts the
//                     sandbox service in this process, from here: the product never imports it.
//   firma users …     src/server/firm (the firm's people and their tokens: add, list, revoke)
//   firma audit …     src/server/firm (the firm's audit trail)
//   firma watch …     src/server/firm (the firm's watch lists: add, set, list, show, remove, log)
require("tsx/cjs");
// A reader that stops early (`firma --help | head`) closes the pipe: what is left to print is dropped,
// the command goes on (a workbook being written is finished), and no stack trace is shown.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e && e.code !== "EPIPE") throw e;
  });
}
const argv = process.argv.slice(2);
const io = { stdout: process.stdout, stderr: process.stderr, env: process.env };
const FIRM = { users: "users-command.ts", audit: "audit-command.ts", watch: "watch-command.ts" };
const run = Object.hasOwn(FIRM, argv[0] ?? "")
  ? require(`../src/server/firm/${FIRM[argv[0]]}`).main(argv.slice(1), io)
  : argv[0] === "serve"
    ? require("../src/server/main.ts").main(argv.slice(1), {
        ...io,
        startSandbox: () => require("../sandbox/server.ts").startSandbox({ port: 0 }),
      })
    : require("../src/cli/main.ts").main(argv);
run.then(
  (code) => (process.exitCode = code),
  (e) => {
    process.stderr.write(`${(e && e.stack) || e}\n`);
    process.exitCode = 1;
  },
);
