/**
 * Answers that arrive together: each frees its place and sends the next call before the cells of any
 * of them are settled (dispatch.ts settles an answer's cells in a task of its own, next-task.ts). With
 * the cells settled in the task the answer arrived in, the second answer's next call waits for the
 * first answer's hundred cells. Each answer arrives in a task of its own, as a socket's data does; its
 * body is read at once (a response whose text() needs no stream, so the order is the engine's alone),
 * and no timer is involved: the batching window never closes here, the test flushes the queue itself.
 */
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { read } from "../support/engine-reads";
import * as data from "../../sandbox/dataset";

test("two answers that arrive in consecutive tasks: both next calls start before any cell of either answer settles (each settles in a task of its own)", async () => {
  const events: string[] = [];
  const held: { cuis: number[]; answer: () => void }[] = [];
  let calls = 0;
  const fetchImpl: typeof fetch = (input) => {
    const n = ++calls;
    events.push(`call ${n}`);
    const cuis = new URL(String(input)).searchParams.get("cui")!.split(",").map(Number);
    return new Promise<Response>((resolve) => {
      held.push({
        cuis,
        answer: () => {
          const body = JSON.stringify(cuis.map((cui) => ({ cui, denumire: data.company(cui)?.denumire ?? `F ${cui}`, stare: "ACTIVA" })));
          const headers = new Headers({ "Content-Type": "application/json" });
          resolve({ status: 200, ok: true, headers, text: () => Promise.resolve(body) } as unknown as Response);
        },
      });
    });
  };
  const engine = new FirmaEngine({
    baseUrl: "http://127.0.0.1:9",
    apiKey: () => "demo-pro-together",
    store: new MemoryStore(),
    plan: () => "pro",
    concurrency: 2,
    maxWaitMs: 5000,
    windowMs: 5000, // does not close in this test: engine.flush() sends the last batch
    fetch: fetchImpl,
  });
  await engine.ready();
  const cuis = data.sampleCuis(400, 620_000);
  const cells = cuis.map((c, i) =>
    read(() => engine.profileField(c, "denumire")).then((v) => {
      if (i % 100 === 0) events.push(`cells of batch ${i / 100 + 1} settle`);
      return v;
    }),
  );
  // The last hundred go to the gate now, not when the window closes: the answers below must find both
  // later calls waiting for a place. Left to the window, call 4 went out whenever its timer came due,
  // before or after the cells of the first answers (CI saw it after: a race of this test, not the engine's).
  const lastBatch = engine.flush();
  await new Promise((r) => setImmediate(r));
  expect(calls).toBe(2); // two places: the other two batches wait
  // both answers are in: two tasks queued one after the other
  setImmediate(() => held[0].answer());
  setImmediate(() => held[1].answer());
  while (calls < 4) await new Promise((r) => setTimeout(r, 5));
  setImmediate(() => held[2].answer());
  setImmediate(() => held[3].answer());
  const names = await Promise.all(cells);
  await lastBatch;
  expect(names).toEqual(cuis.map((c) => data.company(c)?.denumire ?? `F ${c}`));
  const at = (e: string) => events.indexOf(e);
  expect(at("call 3")).toBeLessThan(at("cells of batch 1 settle"));
  expect(at("call 4")).toBeLessThan(at("cells of batch 1 settle"));
  expect(at("call 4")).toBeLessThan(at("cells of batch 2 settle"));
  expect(calls).toBe(4);
});
