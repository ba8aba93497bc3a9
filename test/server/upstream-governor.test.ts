/**
 * The upstream governor (src/server/upstream-governor.ts) against a fake service whose answers the
 * test hands out round by round, on a clock the test moves: how many calls it lets out at once while
 * the answers are clean and fast, after a 429, a 503, a 504 or a time-out, and never past its ceiling.
 */
import { UpstreamGovernor, verdictOf, type Verdict } from "../../src/server/upstream-governor";

/** A fake service: each call waits until the test answers it; the most calls it ever had at once. */
function fakeService(g: UpstreamGovernor) {
  let clock = 0;
  let now = 0;
  let peak = 0;
  const waiting: { answer: (status: number | "timeout") => void }[] = [];
  const call = () =>
    g.run(() =>
      g.observe(
        () =>
          new Promise<number>((resolve, reject) => {
            now++;
            peak = Math.max(peak, now);
            waiting.push({
              answer: (status) => {
                now--;
                if (status === "timeout") reject(new Error("timed out"));
                else resolve(status);
              },
            });
          }),
        // as upstream.ts reads a call: its status, or a time-out (an overload)
        (r): Verdict => ("value" in r ? verdictOf(r.value) : "overload"),
      ),
    );
  return {
    time: () => clock,
    advance: (ms: number) => (clock += ms),
    call,
    get inFlight() {
      return now;
    },
    get peak() {
      return peak;
    },
    /** Answers every call out now with `status` after `ms`; resolves when their tasks have settled. */
    async round(status: number | "timeout" = 200, ms = 100): Promise<number> {
      const out = waiting.splice(0);
      clock += ms;
      for (const w of out) w.answer(status);
      await new Promise((r) => setImmediate(r));
      return out.length;
    },
  };
}

function governed(o: ConstructorParameters<typeof UpstreamGovernor>[0]) {
  let service: ReturnType<typeof fakeService> | null = null;
  const g = new UpstreamGovernor({ ...o, now: () => service!.time() });
  service = fakeService(g);
  return { g, s: service };
}

describe("the upstream governor", () => {
  test("clean, fast answers: the calls out at once double each round up to the ceiling, never past it", async () => {
    const { g, s } = governed({ ceiling: 40, initial: 8 });
    const all = Array.from({ length: 300 }, () => s.call());
    await new Promise((r) => setImmediate(r));
    const rounds: number[] = [];
    while (s.inFlight > 0) rounds.push(await s.round());
    await Promise.all(all);
    expect(rounds.slice(0, 4)).toEqual([8, 16, 32, 40]);
    expect(rounds.every((n) => n <= 40)).toBe(true);
    expect(s.peak).toBe(40);
    expect(g.limit).toBe(40);
  });

  test("a 429, a 503, a 504 or a time-out halves it once for the calls out together; it grows back by one a round", async () => {
    for (const fault of [429, 503, 504, "timeout"] as const) {
      const { g, s } = governed({ ceiling: 64, initial: 32 });
      const all = Array.from({ length: 400 }, () => s.call().catch(() => undefined));
      await new Promise((r) => setImmediate(r));
      expect(await s.round()).toBe(32);
      expect(g.limit).toBe(64);
      // every call of this round says the service is overloaded: one halving, not 64
      expect(await s.round(fault)).toBe(64);
      expect(g.limit).toBe(32);
      expect(g.stats.halvings).toBe(1);
      // then one more a round (a limit's worth of clean answers), not doubling
      const after: number[] = [];
      for (let i = 0; i < 4; i++) after.push(await s.round());
      expect(after).toEqual([32, 33, 34, 35]);
      while (s.inFlight > 0) await s.round();
      await Promise.all(all);
    }
  });

  test("overloads in a row halve it round after round, down to one call, and it climbs again", async () => {
    const { g, s } = governed({ ceiling: 16, initial: 16 });
    const all = Array.from({ length: 200 }, () => s.call());
    await new Promise((r) => setImmediate(r));
    const sizes: number[] = [];
    for (let i = 0; i < 6; i++) sizes.push(await s.round(503));
    expect(sizes).toEqual([16, 8, 4, 2, 1, 1]);
    expect(g.limit).toBe(1);
    for (let i = 0; i < 5; i++) sizes.push(await s.round());
    expect(sizes.slice(6)).toEqual([1, 2, 3, 4, 5]);
    while (s.inFlight > 0) await s.round();
    await Promise.all(all);
  });

  test("slow answers do not grow it; nor do answers sent while it was not in use", async () => {
    const { g, s } = governed({ ceiling: 64, initial: 8 });
    let all = Array.from({ length: 100 }, () => s.call());
    await new Promise((r) => setImmediate(r));
    await s.round(200, 100); // the fastest so far: 100 ms → 16
    expect(g.limit).toBe(16);
    await s.round(200, 350); // more than twice as slow: held
    expect(g.limit).toBe(16);
    await s.round(200, 150); // fast again → 32
    expect(g.limit).toBe(32);
    while (s.inFlight > 0) await s.round();
    await Promise.all(all);
    const limit = g.limit;
    // three calls at a time, far below the limit: it stays where it is however long it goes on
    for (let i = 0; i < 20; i++) {
      all = [s.call(), s.call(), s.call()];
      await new Promise((r) => setImmediate(r));
      await s.round();
      await Promise.all(all);
    }
    expect(g.limit).toBe(limit);
  });

  test("404s are clean answers; 400, 500 and broken connections say nothing of the load", () => {
    expect([200, 404].map(verdictOf)).toEqual(["clean", "clean"]);
    expect([400, 401, 403, 500, 502].map(verdictOf)).toEqual(["neutral", "neutral", "neutral", "neutral", "neutral"]);
    expect([429, 503, 504].map(verdictOf)).toEqual(["overload", "overload", "overload"]);
  });

  test("a bad ceiling or start is named", () => {
    expect(() => new UpstreamGovernor({ ceiling: 0 })).toThrow(/ceiling must be a whole number ≥ 1/);
    expect(() => new UpstreamGovernor({ ceiling: 4, initial: 8 })).toThrow(/initial must be a whole number from 1 to the ceiling/);
    expect(new UpstreamGovernor({ ceiling: 4 }).limit).toBe(4);
  });
});
