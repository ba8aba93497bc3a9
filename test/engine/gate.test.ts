/**
 * The gate every call passes (gate.ts), on its own: budgets count attempts that may be charged and
 * refuse the one past the limit; the stop after "credits spent" lasts to the right moment in
 * Bucharest; the breaker fails queued calls at once after a run of unanswered attempts; a call no
 * cell waits for any more is dropped unsent.
 */
import type { CallRecord } from "../../src/api/types";
import { bucharestDay, nextBucharestMidnight, nextBucharestMonth } from "../../src/engine/credits/bucharest-time";
import { CallGate, DROPPED } from "../../src/engine/credits/gate";
import { ASK_AGAIN } from "../../src/api/http";
import { MemoryStore } from "../../src/engine/cache/store";

const rec = (over: Partial<CallRecord> = {}): CallRecord => ({
  endpoint: "batch",
  path: "/v4/firme/batch",
  query: "",
  status: 200,
  credited: true,
  charged: true,
  durationMs: 5,
  attempt: 1,
  ...over,
});

function gate(now = () => Date.parse("2026-11-23T10:00:00Z"), plan: "free" | "pro" | null = "pro") {
  return new CallGate(new MemoryStore(), 2, now, () => plan);
}

test("a budget of 3 lets 3 charged attempts through and refuses the 4th before it is sent", () => {
  const g = gate();
  const b = g.openBudget(3);
  for (let i = 0; i < 3; i++) {
    g.beforeCall("k");
    g.afterCall("k", rec());
  }
  expect(() => g.beforeCall("k")).toThrow(expect.objectContaining({ kind: "budget_reached" }));
  expect(b.spent).toBe(3);
  expect(b.refused).toBe(1);
  b.close();
  expect(() => g.beforeCall("k")).not.toThrow();
});

test("attempts in flight count against a budget, and refusals before charging (401/403/429) give their credit back", () => {
  const g = gate();
  const b = g.openBudget(2);
  g.beforeCall("k");
  g.beforeCall("k");
  expect(() => g.beforeCall("k")).toThrow(expect.objectContaining({ kind: "budget_reached" }));
  g.afterCall("k", rec({ status: 403, credited: false, charged: false }));
  expect(() => g.beforeCall("k")).not.toThrow();
  expect(b.spent).toBe(0);
});

test("a budget closed while attempts are in flight counts them as spent: the service may still charge them", () => {
  const g = gate();
  const b = g.openBudget(5);
  g.beforeCall("k");
  g.afterCall("k", rec());
  g.beforeCall("k"); // still in flight when the run stops waiting (a flush's deadline)
  b.close();
  expect(b.spent).toBe(2);
  g.afterCall("k", rec()); // its answer comes later: not counted twice
  b.close();
  expect(b.spent).toBe(2);
});

test("a 429 stops the key until the next month on a paid plan, the next Bucharest midnight on Free, or Retry-After", () => {
  const t = Date.parse("2026-11-23T10:00:00Z");
  const paid = gate(() => t, "pro");
  paid.afterCall("k", rec({ status: 429, credited: false, charged: false }));
  expect(paid.stopFor("k")).toMatchObject({ by: "month", until: Date.parse("2026-11-30T22:00:00Z") });
  expect(() => paid.beforeCall("k")).toThrow(expect.objectContaining({ kind: "credits_exhausted" }));
  expect(() => paid.beforeCall("other-key")).not.toThrow();

  const free = gate(() => t, "free");
  free.afterCall("k", rec({ status: 429, credited: false, charged: false }));
  expect(free.stopFor("k")).toMatchObject({ by: "day", until: Date.parse("2026-11-23T22:00:00Z") });

  const told = gate(() => t, "pro");
  told.afterCall("k", rec({ status: 429, credited: false, charged: false, retryAfterMs: 60_000 }));
  expect(told.stopFor("k")).toMatchObject({ by: "retry-after", until: t + 60_000 });
  told.clearStop("k");
  expect(told.stopFor("k")).toBeNull();
});

test("a firm's server's 429 names whose limit: a person's budget stops to the month's end, the firm's daily cap to midnight, on any plan", () => {
  const t = Date.parse("2026-11-23T10:00:00Z");
  const budget = gate(() => t, "free");
  budget.afterCall("k", rec({ status: 429, credited: false, charged: false, firmLimit: "budget" }));
  expect(budget.stopFor("k")).toMatchObject({ by: "month", firm: "budget", until: Date.parse("2026-11-30T22:00:00Z") });
  expect(() => budget.beforeCall("k")).toThrow(expect.objectContaining({ kind: "credits_exhausted", firmLimit: "budget" }));

  const cap = gate(() => t, "pro");
  cap.afterCall("k", rec({ status: 429, credited: false, charged: false, firmLimit: "day" }));
  expect(cap.stopFor("k")).toMatchObject({ by: "day", firm: "day", until: Date.parse("2026-11-23T22:00:00Z") });
  expect(() => cap.beforeCall("k")).toThrow(expect.objectContaining({ firmLimit: "day" }));

  // A 429 that names no firm's limit is the plan's.
  const plan = gate(() => t, "pro");
  plan.afterCall("k", rec({ status: 429, credited: false, charged: false }));
  expect(plan.stopFor("k")).not.toHaveProperty("firm");
  expect(() => plan.beforeCall("k")).toThrow(expect.objectContaining({ firmLimit: null }));
});

test("a firm's server's X-Credits-Remaining (scope firm-budget) reaching 0: the stop and the refusal name the person's budget", () => {
  const g = gate(undefined, "pro");
  g.beforeCall("k");
  g.afterCall("k", rec({ quota: { plan: "pro", remaining: 0, limit: 5, scope: "firm-budget" } }));
  expect(g.stopFor("k")).toMatchObject({ by: "month", firm: "budget" });
  expect(() => g.beforeCall("k")).toThrow(expect.objectContaining({ firmLimit: "budget" }));
});

test("X-Credits-Remaining reaching 0 stops the key without waiting for a 429", () => {
  const g = gate(undefined, "free");
  g.beforeCall("k");
  g.afterCall("k", rec({ quota: { plan: "free", remaining: 0, limit: null } }));
  expect(g.stopFor("k")).not.toBeNull();
  expect(() => g.beforeCall("k")).toThrow(expect.objectContaining({ kind: "credits_exhausted" }));
});

test("the stop is kept in storage: a new gate over the same store (a reopened workbook) still sends nothing", async () => {
  const store = new MemoryStore();
  const now = () => Date.parse("2026-11-23T10:00:00Z");
  const a = new CallGate(store, 2, now, () => "pro");
  await a.load();
  a.afterCall("k", rec({ status: 429, credited: false, charged: false }));
  await new Promise((r) => setTimeout(r, 10));
  const b = new CallGate(store, 2, now, () => "pro");
  await b.load();
  expect(() => b.beforeCall("k")).toThrow(expect.objectContaining({ kind: "credits_exhausted" }));
});

test("Bucharest's day and month turn over at its own midnight, daylight saving included", () => {
  expect(new Date(nextBucharestMidnight(Date.parse("2026-03-28T12:00:00Z"))).toISOString()).toBe("2026-03-28T22:00:00.000Z");
  expect(new Date(nextBucharestMidnight(Date.parse("2026-03-29T12:00:00Z"))).toISOString()).toBe("2026-03-29T21:00:00.000Z");
  expect(new Date(nextBucharestMonth(Date.parse("2026-12-15T12:00:00Z"))).toISOString()).toBe("2026-12-31T22:00:00.000Z");
});

test("the day in Bucharest is Intl's every quarter of an hour of a year, both daylight-saving changes included, in any order", () => {
  const intl = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Bucharest", year: "numeric", month: "2-digit", day: "2-digit" });
  const start = Date.parse("2026-01-01T00:07:00Z");
  const times = Array.from({ length: 365 * 96 }, (_, i) => start + i * 900_000);
  for (const t of times) expect(bucharestDay(t)).toBe(intl.format(t));
  // and back and forth across the night the clocks go forward (2026-03-29, 01:00 UTC) and back (2026-10-25, 01:00 UTC)
  for (const t of [
    "2026-03-28T21:59:59.999Z",
    "2026-03-28T22:00:00Z",
    "2026-03-29T00:59:59Z",
    "2026-03-29T21:00:00Z",
    "2026-10-24T20:59:59Z",
    "2026-10-24T21:00:00Z",
    "2026-10-25T21:59:59Z",
    "2026-10-25T22:00:00Z",
    "2026-03-28T21:00:00Z",
  ].map(Date.parse))
    expect(bucharestDay(t)).toBe(intl.format(t));
});

const NO_ANSWER = rec({ status: 0, errorKind: "timeout", credited: false, charged: false });

/** A call through the gate that ends as `outcome` says, when the test says. */
function call(g: CallGate, log: string[], name: string) {
  let finish: (ok: boolean) => void = () => undefined;
  const done = g.run(
    () =>
      new Promise<string>((resolve, reject) => {
        log.push(`start ${name}`);
        try {
          g.beforeCall("k");
        } catch (e) {
          log.push(`refused ${name}`);
          reject(e);
          return;
        }
        finish = (ok) => {
          g.afterCall("k", ok ? rec() : NO_ANSWER);
          if (ok) resolve(name);
          else reject(new Error(`no answer ${name}`));
        };
      }),
  );
  return { done: done.catch((e: Error) => e.message), finish: (ok: boolean) => finish(ok) };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

test("after six attempts without an answer one call alone asks the service; no answer to it either opens the breaker, and queued calls then fail at once", async () => {
  const g = gate();
  for (let i = 0; i < 6; i++) {
    g.beforeCall("k");
    g.afterCall("k", NO_ANSWER);
  }
  const log: string[] = [];
  const [probe, a, b] = ["probe", "a", "b"].map((n) => call(g, log, n));
  await tick();
  expect(log).toEqual(["start probe"]); // alone, though the gate allows 2 at once
  probe.finish(false);
  expect(await probe.done).toBe("no answer probe");
  await tick();
  expect(log).toEqual(["start probe", "start a", "refused a", "start b", "refused b"]);
  expect([await a.done, await b.done]).toEqual([
    expect.stringMatching(/did not answer|timeout/i),
    expect.stringMatching(/did not answer|timeout/i),
  ]);
  expect(() => g.beforeCall("k")).toThrow(expect.objectContaining({ kind: "timeout" }));
});

test("a burst of failures that says nothing of the service costs only its own calls: the probe's answer closes the breaker and the queue goes on at full width", async () => {
  const g = gate();
  const log: string[] = [];
  // after five failures, two calls in flight fail together: the sixth and seventh in a row
  for (let i = 0; i < 5; i++) {
    g.beforeCall("k");
    g.afterCall("k", NO_ANSWER);
  }
  const [x, y, probe, a, b] = ["x", "y", "probe", "a", "b"].map((n) => call(g, log, n));
  await tick();
  expect(log).toEqual(["start x", "start y"]);
  x.finish(false);
  await tick();
  // suspect: nothing new starts while y is still in flight
  expect(log).toEqual(["start x", "start y"]);
  y.finish(false);
  await tick();
  expect(log).toEqual(["start x", "start y", "start probe"]);
  probe.finish(true);
  expect(await probe.done).toBe("probe");
  await tick();
  expect(log.slice(3)).toEqual(["start a", "start b"]); // both at once again
  a.finish(true);
  b.finish(true);
  expect([await a.done, await b.done]).toEqual(["a", "b"]);
});

test("retries that come while the probe is out are held for its verdict: an answer lets them go, no answer refuses them", async () => {
  for (const answered of [true, false]) {
    const g = gate();
    for (let i = 0; i < 6; i++) {
      g.beforeCall("k");
      g.afterCall("k", NO_ANSWER);
    }
    // the six calls' retries: the first is let through (the probe), the others are held
    expect(g.beforeCall("k")).toBeUndefined();
    const held = [g.beforeCall("k"), g.beforeCall("k")];
    let settled = 0;
    for (const h of held) {
      expect(h).toBeInstanceOf(Promise);
      void h!.then(() => settled++);
    }
    await tick();
    expect(settled).toBe(0);
    g.afterCall("k", answered ? rec() : NO_ANSWER);
    await tick();
    expect(settled).toBe(2);
    // asked again: both are sent after an answer, both refused after none
    if (answered) for (let i = 0; i < 2; i++) expect(g.beforeCall("k")).toBeUndefined();
    else for (let i = 0; i < 2; i++) expect(() => g.beforeCall("k")).toThrow(expect.objectContaining({ kind: "timeout" }));
  }
});

test("a probe that ends without a verdict (its caller gave up) hands the question to the next attempt", async () => {
  const g = gate();
  for (let i = 0; i < 6; i++) {
    g.beforeCall("k");
    g.afterCall("k", NO_ANSWER);
  }
  expect(g.beforeCall("k")).toBeUndefined(); // the probe
  const held = g.beforeCall("k");
  let settled = false;
  void held!.then(() => (settled = true));
  g.afterCall("k", rec({ status: 0, errorKind: "aborted", credited: false, charged: false }));
  await tick();
  expect(settled).toBe(true);
  expect(g.beforeCall("k")).toBeUndefined(); // asks the question now
  expect(g.beforeCall("k")).toBeInstanceOf(Promise); // and the next waits for it
});

test("an attempt sent before the probe that gets no answer is not the probe's verdict: the held retries wait for the probe's own", async () => {
  const g = gate();
  let id = 0;
  const older = [++id, ++id]; // two attempts still out when the breaker turns suspect
  for (const o of older) g.beforeCall("k", o);
  for (let i = 0; i < 6; i++) {
    g.beforeCall("k", ++id);
    g.afterCall("k", rec({ ...NO_ANSWER, id }));
  }
  const probe = ++id;
  expect(g.beforeCall("k", probe)).toBeUndefined();
  const held = g.beforeCall("k", ++id);
  let told: unknown = null;
  void held!.then((v) => (told = v));
  g.afterCall("k", rec({ ...NO_ANSWER, id: older[0] })); // an older attempt times out
  await tick();
  expect(told).toBeNull(); // still waiting for the probe
  g.afterCall("k", rec({ id: probe })); // the probe is answered
  await tick();
  expect(told).toBe(ASK_AGAIN);
  expect(g.beforeCall("k", ++id)).toBeUndefined(); // sent
});

test("any answer closes the breaker", () => {
  const g = gate();
  for (let i = 0; i < 5; i++) {
    g.beforeCall("k");
    g.afterCall("k", NO_ANSWER);
  }
  g.beforeCall("k");
  g.afterCall("k", rec({ status: 503, errorKind: "server", charged: true }));
  for (let i = 0; i < 5; i++) {
    g.beforeCall("k");
    g.afterCall("k", NO_ANSWER);
  }
  expect(() => g.beforeCall("k")).not.toThrow();
});

test("a call whose answer is in frees its place before it is read: the next call goes first, and the place is freed once", async () => {
  const g = gate(); // two calls in flight at most
  const started: number[] = [];
  const free: (() => void)[] = [];
  const finish: (() => void)[] = [];
  const calls = [0, 1, 2, 3].map((n) =>
    g.run((release) => {
      started.push(n);
      free[n] = release;
      return new Promise<number>((resolve) => (finish[n] = () => resolve(n)));
    }),
  );
  expect(started).toEqual([0, 1]);
  free[0](); // call 0's answer is in, not yet read: call 2 leaves at once
  expect(started).toEqual([0, 1, 2]);
  free[0]();
  finish[0]();
  await expect(calls[0]).resolves.toBe(0);
  expect(started).toEqual([0, 1, 2]); // freed twice, resolved: still one place
  finish[1]();
  await expect(calls[1]).resolves.toBe(1);
  expect(started).toEqual([0, 1, 2, 3]);
  finish[2]();
  finish[3]();
  await expect(Promise.all(calls)).resolves.toEqual([0, 1, 2, 3]);
  expect(g.busy).toBe(0);
});

test("a call no cell waits for any more is dropped when its turn comes", async () => {
  const g = gate();
  let sent = 0;
  const task = async () => {
    sent++;
    return 1;
  };
  const results = await Promise.all([g.run(task), g.run(task, () => false), g.run(task)]);
  expect(results).toEqual([1, DROPPED, 1]);
  expect(sent).toBe(2);
});

describe("near the Free plan's daily limit, one call at a time", () => {
  /** A gate of 6 over a meter that says what the key spent today; 8 calls queued, each ended by hand. */
  function near(plan: "free" | "pro" | null, today: { calls: number; answered: number }) {
    const meter = { today: () => today, detectedPlan: () => null };
    const g = new CallGate(
      new MemoryStore(),
      6,
      () => Date.parse("2026-11-23T10:00:00Z"),
      () => plan,
      meter,
      () => "k",
    );
    const ends: (() => void)[] = [];
    const started = () => ends.length;
    for (let i = 0; i < 8; i++) void g.run(() => new Promise<void>((end) => ends.push(end)));
    /** The i-th call ends answered, counted by the meter as the client's onCall would. */
    const answer = async (i: number) => {
      today.calls++;
      today.answered++;
      ends[i]();
      await new Promise((r) => setImmediate(r));
    };
    return { started, answer };
  }

  test.each([
    ["unknown", null],
    ["Free", "free" as const],
  ])("plan %s, 7 calls today: the 8th to 10th go at once, the 11th alone, and after its answer the rest at once", async (_, plan) => {
    const { started, answer } = near(plan, { calls: 7, answered: 7 });
    expect(started()).toBe(3);
    await answer(0);
    expect(started()).toBe(3);
    await answer(1);
    await answer(2);
    expect(started()).toBe(4);
    await answer(3);
    expect(started()).toBe(8);
  });

  test("a paid plan, a key answered past the limit today, or a stopped key: no pacing", async () => {
    expect(near("pro", { calls: 9, answered: 9 }).started()).toBe(6);
    expect(near(null, { calls: 11, answered: 11 }).started()).toBe(6);
    const meter = { today: () => ({ calls: 10, answered: 10 }), detectedPlan: () => null };
    const g = new CallGate(
      new MemoryStore(),
      6,
      Date.now,
      () => null,
      meter,
      () => "k",
    );
    g.afterCall("k", rec({ status: 429, credited: false, charged: false }));
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => g.run(async () => g.beforeCall("k"))));
    expect(settled.every((r) => r.status === "rejected" && r.reason.kind === "credits_exhausted")).toBe(true);
  });
});
