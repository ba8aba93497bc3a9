/**
 * The cache's delayed save (save-timer.ts): a quiet window after the last change, at most the longest
 * delay after the first, so that a fill whose answers keep arriving is not held up by a save of whole
 * shards every few hundred ms, and still saves every few seconds.
 */
import { SaveTimer } from "../../src/engine/cache/save-timer";

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test("answers every 100 ms for 3 s (quiet 500 ms, at most 1 s): a save each second, not one per 500 ms", () => {
  const saves: number[] = [];
  const t0 = Date.now();
  const timer = new SaveTimer(500, 1000, () => {
    saves.push(Date.now() - t0);
    timer.cancel(); // as the cache's save() does when it starts
  });
  for (let t = 0; t < 3000; t += 100) {
    timer.schedule();
    jest.advanceTimersByTime(100);
  }
  jest.advanceTimersByTime(2000);
  // The last change (at 2,900 ms) is in the save at 3,000 ms: nothing is left for a later one.
  expect(saves).toEqual([1000, 2000, 3000]);
});

test("one change: saved after the quiet window", () => {
  const saves: number[] = [];
  const t0 = Date.now();
  const timer = new SaveTimer(500, 5000, () => saves.push(Date.now() - t0));
  timer.schedule();
  jest.advanceTimersByTime(10_000);
  expect(saves).toEqual([500]);
});

test("a delay of 0: no delayed save at all (the caller saves itself)", () => {
  const run = jest.fn();
  const timer = new SaveTimer(0, 5000, run);
  timer.schedule();
  jest.advanceTimersByTime(10_000);
  expect(run).not.toHaveBeenCalled();
});
