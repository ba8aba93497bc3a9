/**
 * The coalescing queue on its own (queue.ts), with fake timers and a recording `send`: when a flush
 * goes out (the quiet window, the longest wait, a full batch), what it holds, and what happens to
 * cancelled cells.
 */
import { RequestQueue } from "../../src/engine/cells/queue";
import type { Want } from "../../src/engine/cells/wants";
import { settle } from "../../src/engine/cells/wants";

function setup(windowMs = 40, maxWaitMs = 1000) {
  const flushes: Want[][] = [];
  const q = new RequestQueue({
    windowMs,
    maxWaitMs,
    send: async (wants) => {
      flushes.push(wants);
      for (const w of wants) settle(w, { cui: w.cui, denumire: `F${w.cui}` });
    },
  });
  const ask = (cui: number, signal?: AbortSignal) => q.request("profile", `p:${cui}`, cui, 0, ["denumire"], signal);
  return { q, flushes, ask };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test("cells asked within the quiet window go out together, once the window has passed", async () => {
  const { flushes, ask } = setup(40);
  const a = ask(1);
  jest.advanceTimersByTime(30);
  const b = ask(2);
  jest.advanceTimersByTime(30); // 60 ms after the first, 30 after the last: still waiting
  expect(flushes).toHaveLength(0);
  jest.advanceTimersByTime(15);
  await Promise.all([a, b]);
  expect(flushes.map((f) => f.map((w) => w.cui))).toEqual([[1, 2]]);
});

test("a steady stream does not wait for ever: maxWaitMs after the first cell the queue goes out", async () => {
  const { flushes, ask } = setup(40, 200);
  const asked: Promise<unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    asked.push(ask(i + 1));
    jest.advanceTimersByTime(30); // never quiet for 40 ms
  }
  // 300 ms have passed: the first flush went at 200 ms with the cells asked by then
  expect(flushes.length).toBeGreaterThanOrEqual(1);
  expect(flushes[0].length).toBe(7);
  jest.advanceTimersByTime(1000);
  await Promise.all(asked);
  expect(flushes.flat().map((w) => w.cui)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test("the 101st company sends the first 100 at once, without waiting for the window", async () => {
  const { flushes, ask } = setup(10_000, 60_000);
  const asked = Array.from({ length: 100 }, (_, i) => ask(i + 1));
  expect(flushes).toHaveLength(0);
  asked.push(ask(101));
  expect(flushes.map((f) => f.map((w) => w.cui))).toEqual([Array.from({ length: 100 }, (_, i) => i + 1)]);
  asked.push(...Array.from({ length: 49 }, (_, i) => ask(102 + i)));
  expect(flushes).toHaveLength(1);
  await Promise.all(asked.slice(0, 100));
  jest.advanceTimersByTime(10_000);
  await Promise.all(asked);
  expect(flushes.map((f) => f.length)).toEqual([100, 50]);
});

test("a full batch among pending financial years takes the 100 profiles only; the years wait for the window", async () => {
  const { q, flushes } = setup(10_000, 60_000);
  const years = [1, 2, 3].map((cui) => q.request("financial", `f:${cui}:2024`, cui, 2024, ["cifra_afaceri"]));
  const names = Array.from({ length: 101 }, (_, i) => q.request("profile", `p:${i + 1}`, i + 1, 0, ["denumire"]));
  expect(flushes.map((f) => [f.length, f.every((w) => w.kind === "profile")])).toEqual([[100, true]]);
  jest.advanceTimersByTime(10_000);
  await Promise.all([...names, ...years]);
  expect(flushes.map((f) => f.map((w) => w.kind)).map((k) => k.join())).toEqual([
    Array(100).fill("profile").join(),
    "financial,financial,financial,profile",
  ]);
});

test("a company's other fields asked right after its first join its want: a row of 5 functions × 1,000 companies sends 10 batches", async () => {
  const { q, flushes } = setup(40, 1000);
  const asked: Promise<unknown>[] = [];
  for (let cui = 1; cui <= 1000; cui++) {
    asked.push(q.request("profile", `p:${cui}`, cui, 0, ["denumire"]));
    asked.push(q.request("profile", `p:${cui}`, cui, 0, ["judet"]));
  }
  jest.advanceTimersByTime(100);
  await Promise.all(asked);
  expect(flushes.map((f) => f.length)).toEqual(Array(10).fill(100));
  expect(flushes.flat().every((w) => w.fields.includes("denumire") && w.fields.includes("judet"))).toBe(true);
});

test("requests asked in one run (as Excel invokes a calculation's cells) wait a quiet window from the run's end, not its start", async () => {
  const { flushes, ask } = setup(40);
  let asked: Promise<unknown>[] = [];
  // one synchronous run that lasts 30 ms by the clock: the window is counted from its last request
  const start = Date.now();
  for (let i = 0; i < 3; i++) {
    asked.push(ask(i + 1));
    jest.setSystemTime(start + 15 * (i + 1));
  }
  jest.advanceTimersByTime(35); // 80 ms after the first request, 35 after the run ended
  expect(flushes).toHaveLength(0);
  jest.advanceTimersByTime(10);
  await Promise.all(asked);
  expect(flushes.map((f) => f.map((w) => w.cui))).toEqual([[1, 2, 3]]);
  asked = [];
});

test("the same answer asked twice is one want; a cancelled cell leaves it, and a want no one waits for is not sent", async () => {
  const { flushes, ask } = setup(40);
  const ac = new AbortController();
  const gone = ask(7, ac.signal);
  const kept = [ask(8), ask(8)];
  ac.abort();
  await expect(gone).rejects.toMatchObject({ kind: "aborted" });
  jest.advanceTimersByTime(50);
  await Promise.all(kept);
  expect(flushes.map((f) => f.map((w) => [w.cui, w.waiters.length]))).toEqual([[[8, 2]]]);
});

test("idle() resolves only when the flushes in progress have ended", async () => {
  let release!: () => void;
  const q = new RequestQueue({
    windowMs: 0,
    maxWaitMs: 0,
    send: (wants) =>
      new Promise<void>((r) => {
        release = () => {
          for (const w of wants) settle(w, { cui: w.cui });
          r();
        };
      }),
  });
  void q.request("profile", "p:1", 1, 0, ["denumire"]);
  const flushing = q.flush();
  let idle = false;
  const waiting = q.idle().then(() => (idle = true));
  await Promise.resolve();
  expect(idle).toBe(false);
  release();
  await flushing;
  await waiting;
  expect(idle).toBe(true);
});
