import { turnClock } from "../../src/engine/cells/turn-clock";

describe("turnClock", () => {
  afterEach(() => jest.restoreAllMocks());

  test("over Date.now: one read per synchronous run of work, a new read after a microtask", async () => {
    let t = 1_000;
    const spy = jest.spyOn(Date, "now").mockImplementation(() => t);
    const clock = turnClock(Date.now);
    expect(clock()).toBe(1_000);
    t = 2_000;
    expect(clock()).toBe(1_000); // the same run of work
    expect(spy).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    await Promise.resolve();
    expect(clock()).toBe(2_000);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  test("a clock injected (a test's, an option's) is read every time", () => {
    let t = 5;
    const clock = turnClock(() => t);
    expect(clock()).toBe(5);
    t = 6;
    expect(clock()).toBe(6);
  });
});
