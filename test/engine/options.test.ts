/** The engine's options: defaults applied in one place, each bad option named, the key never shown. */
import { FirmaEngine } from "../../src/engine/engine";
import { BATCH_WINDOW, ENGINE_DEFAULTS, getValidEngineOptions } from "../../src/engine/options";
import { MemoryStore } from "../../src/engine/store";

const base = { baseUrl: "http://127.0.0.1:1", apiKey: () => "k", store: new MemoryStore() };

test("defaults fill what is left out", () => {
  const o = getValidEngineOptions(base);
  expect(o).toMatchObject({
    windowMs: 40,
    maxWaitMs: 1000,
    concurrency: 6,
    timeoutMs: 10_000,
    retries: 1,
    guardThreshold: null,
    latestYear: null,
  });
  expect(o.baseUrl()).toBe("http://127.0.0.1:1");
  expect(ENGINE_DEFAULTS.windowMs).toBe(BATCH_WINDOW.default);
});

test.each([
  ["windowMs", -1],
  ["windowMs", BATCH_WINDOW.max + 1],
  ["maxWaitMs", Number.NaN],
  ["concurrency", 0],
  ["concurrency", 1.5],
  ["timeoutMs", 0],
  ["retries", -1],
  ["maxCacheEntries", 0],
  ["guardThreshold", -3],
  ["latestYear", "2024"],
  ["fetch", "fetch"],
])("a bad %s (%p) is refused by name when the engine is made", (name, value) => {
  expect(() => new FirmaEngine({ ...base, [name]: value })).toThrow(new RegExp(`invalid option "${name}"`));
});

test("a key passed as a string is refused without being shown", () => {
  const secret = "sk_live_do_not_print_me";
  let message = "";
  try {
    new FirmaEngine({ ...base, apiKey: secret as never });
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toMatch(/invalid option "apiKey"/);
  expect(message).not.toContain(secret);
});

test("the batch window the settings save is checked by the same rule", async () => {
  const engine = new FirmaEngine(base);
  expect(() => engine.configure({ batchWindowMs: BATCH_WINDOW.max })).not.toThrow();
  expect(() => engine.configure({ batchWindowMs: BATCH_WINDOW.max + 1 })).toThrow(/windowMs/);
  expect(() => engine.configure({ guardThreshold: -1 })).toThrow(/guardThreshold/);
});
