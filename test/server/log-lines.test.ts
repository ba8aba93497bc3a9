/** The server's log lines, written together once per turn (src/server/log-lines.ts): none lost, none reordered. */
import { logLines } from "../../src/server/log-lines";

const turn = () => new Promise((r) => setImmediate(r));

test("the lines of one turn go out in one write, in order; the next turn's in the next", async () => {
  const writes: string[] = [];
  const log = logLines((s) => writes.push(s));
  for (let i = 0; i < 100; i++) log.write(`{"n":${i}}\n`);
  expect(writes).toEqual([]);
  await turn();
  expect(writes).toHaveLength(1);
  expect(writes[0].split("\n").slice(0, -1)).toEqual(Array.from({ length: 100 }, (_, i) => `{"n":${i}}`));
  log.write("a\n");
  await turn();
  expect(writes).toEqual([expect.any(String), "a\n"]);
});

test("flush writes what waits at once (closing, exiting), and nothing twice", async () => {
  const writes: string[] = [];
  const log = logLines((s) => writes.push(s));
  log.write("x\n");
  log.write("y\n");
  log.flush();
  expect(writes).toEqual(["x\ny\n"]);
  await turn();
  log.flush();
  expect(writes).toEqual(["x\ny\n"]);
});
