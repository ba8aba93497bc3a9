/**
 * Nothing stuck when Excel cancels: an invocation cancelled while it waits for the service settles at
 * once with "cancelled", whether it waits in the batching queue, in a batch call already sent, or in
 * a list's pages; the others go on. Through the BUILT bundle in the Excel runtime stand-in.
 * Loads the functions bundle of the present sources (test/support/builds.js).
 */
import { ExcelStandIn, StandInError, StandInStorage } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

const LATENCY_MS = 400;
let sb: Sandbox;
let serial = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, latencyMs: LATENCY_MS });
});
afterAll(async () => {
  await sb.close();
});

function excel() {
  const storage = new StandInStorage();
  storage.data.set("firma.apiKey", `demo-enterprise-cancel${++serial}`);
  storage.data.set("firma.baseUrl", sb.url);
  storage.data.set("firma.batchWindowMs", "5");
  return new ExcelStandIn(storage);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls FIRMA.<fn>, cancels it after `afterMs`, and returns what it settled with and how long after the cancel. */
async function cancelled(xl: ExcelStandIn, fn: string, args: unknown[], afterMs: number): Promise<{ result: unknown; settleMs: number }> {
  const inv: { onCanceled?: () => void } = {};
  const p = xl.call(fn, args, inv);
  await pause(afterMs);
  const t0 = performance.now();
  inv.onCanceled!();
  const result = await p;
  return { result, settleMs: performance.now() - t0 };
}

const CANCELLED = /Calcul anulat/;

describe("cancelled invocations settle at once", () => {
  const [A, B, C] = data.sampleCuis(3, 900_000);
  const cases: [string, string, unknown[], number, (r: unknown) => StandInError][] = [
    ["a cell still in the batching queue", "DENUMIRE", [A], 0, (r) => r as StandInError],
    ["a cell whose batch call is on its way", "CA", [B, data.LATEST_YEAR], 100, (r) => r as StandInError],
    ["a range whose batch call is on its way", "DENUMIRE", [[[A], [C]]], 100, (r) => (r as unknown[][])[1][0] as StandInError],
    // A list that fails (or is cancelled) answers one error in its own cell.
    ["a search waiting for its first page", "CAUTA", ["SRL", null, null, null, 250], 100, (r) => r as StandInError],
    ["a ranking waiting for its first page", "TOP", [`top-cifra-afaceri-${data.LATEST_YEAR}-national`, 300], 100, (r) => r as StandInError],
  ];

  test.each(cases)("%s", async (_label, fn, args, afterMs, errorOf) => {
    const xl = excel();
    const { result, settleMs } = await cancelled(xl, fn, args, afterMs);
    const e = errorOf(result);
    expect(e).toBeInstanceOf(StandInError);
    expect(e.code).toBe("#N/A");
    expect(e.message).toMatch(CANCELLED);
    expect(settleMs).toBeLessThan(LATENCY_MS / 2);
  });

  test("the other cells of the same batch still get their values", async () => {
    const xl = excel();
    const [x, y] = data.sampleCuis(2, 901_000);
    const inv: { onCanceled?: () => void } = {};
    const dropped = xl.call("DENUMIRE", [x], inv);
    const kept = xl.call("DENUMIRE", [y]);
    await pause(100);
    inv.onCanceled!();
    expect(((await dropped) as StandInError).message).toMatch(CANCELLED);
    expect(await kept).toEqual([[data.company(y)!.denumire]]);
  });
});
