/**
 * next-task.ts: an answer's cells are settled in a task after those already queued, so that answers
 * arrived meanwhile free their places (and send their next calls) first.
 */
import * as vm from "vm";
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { inNextTask } from "../../src/engine/cells/next-task";

test("inNextTask(v) settles with v after the tasks already queued (Node: setImmediate), not in the microtasks of this one", async () => {
  const order: string[] = [];
  setImmediate(() => order.push("queued before"));
  const p = inNextTask(42).then((v) => order.push(`in next task ${v}`));
  await Promise.resolve();
  order.push("microtask");
  await p;
  expect(order).toEqual(["microtask", "queued before", "in next task 42"]);
});

test("in a page without setImmediate it posts to a MessageChannel (no timer clamping), in order; with neither, setTimeout(0)", async () => {
  const source = ts.transpileModule(fs.readFileSync(path.join(__dirname, "../../src/engine/cells/next-task.ts"), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  }).outputText;
  const load = (globals: Record<string, unknown>) => {
    const module = { exports: {} as { inNextTask: <T>(v: T) => Promise<T> } };
    vm.runInNewContext(source, { module, exports: module.exports, ...globals });
    return module.exports.inNextTask;
  };
  // a browser page: MessageChannel, no setImmediate
  let posted = 0;
  class PageChannel {
    port1: { onmessage: (() => void) | null } = { onmessage: null };
    port2 = { postMessage: () => (posted++, setTimeout(() => this.port1.onmessage?.(), 0)) };
  }
  const timers: unknown[] = [];
  const pageLater = load({ MessageChannel: PageChannel, setTimeout: (f: () => void, ms: number) => (timers.push(ms), setTimeout(f, ms)) });
  const got = await Promise.all([pageLater("a"), pageLater("b"), pageLater("c")]);
  expect(got).toEqual(["a", "b", "c"]);
  expect(posted).toBe(3);
  // neither: a timer of 0 ms
  timers.length = 0;
  const bare = load({ setTimeout: (f: () => void, ms: number) => (timers.push(ms), setTimeout(f, ms)) });
  await expect(bare("x")).resolves.toBe("x");
  expect(timers).toEqual([0]);
});
