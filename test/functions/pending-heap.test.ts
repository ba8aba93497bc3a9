/**
 * The heap a waiting cell costs: 10,000 cells of the BUILT add-in, each waiting for a service that
 * has not answered yet, measured in a child process started with `node --expose-gc`
 * (test/support/pending-heap-child.ts), so that Jest's own heap does not blur it. A fill of 100,000
 * names in a webview holds this much per cell until its batch answers.
 *
 * Measured: the build before the cell path was slimmed, 2,455 bytes per waiting cell; after, about
 * 1,200 (a Set of fields and one of waiters per company, a second cache read, five chained promises,
 * a cancellation object and two closures per cell are gone: docs/architecture.md, "What a waiting
 * cell holds"). Then, about 930: the promise Excel gets is the queue's own, finished in Excel's form by
 * the cell's invocation context, not two more promises and a closure chained per cell (Excel's stand-in
 * shrank with it). Then about 880 (a want's arrays of their own length, a bound onCanceled), and about
 * 810: the queue's waiter keeps its promise's resolve function only (it rejects by resolving with a
 * rejected promise), so the reject function does not wait with the cell. The bound is the measured
 * figure plus 25 %.
 */
import { execFile } from "child_process";
import { promisify } from "util";
import * as path from "path";
import { DIST } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";

const BOUND_BYTES = 1_010;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, latencyMs: 60_000 }); // answers after the measurement is over
});
afterAll(async () => {
  await sb.close();
});

test(`a cell waiting for the service holds at most ${BOUND_BYTES} bytes of the add-in's heap`, async () => {
  // Not spawnSync: the sandbox runs in this process and must accept the child's calls meanwhile.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", "--import", "tsx", path.join(__dirname, "..", "support", "pending-heap-child.ts")],
    { env: { ...process.env, FIRMA_DIST: DIST, FIRMA_HEAP_SERVICE: sb.url }, encoding: "utf8", timeout: 120_000 },
  );
  const { cells, bytesPerWaitingCell } = JSON.parse(stdout.trim().split("\n").pop()!) as { cells: number; bytesPerWaitingCell: number };
  console.log(`${cells} waiting cells: ${bytesPerWaitingCell} bytes of heap each (bound ${BOUND_BYTES})`);
  expect(cells).toBe(10_000);
  expect(bytesPerWaitingCell).toBeGreaterThan(0); // the cells were measured, not collected
  expect(bytesPerWaitingCell).toBeLessThanOrEqual(BOUND_BYTES);
}, 180_000);
