/** The engine's options: defaults applied in one place, each bad option named, the key never shown. */
import { FirmaEngine } from "../../src/engine/engine";
import { BATCH_WINDOW, ENGINE_DEFAULTS, getValidEngineOptions, isBatchWindow, isGuardThreshold } from "../../src/engine/engine-options";
import { parseGuardThreshold } from "../../src/shared/settings";
import { parseSettingsForm } from "../../src/taskpane/pane/settings-form";
import { MemoryStore } from "../../src/engine/cache/store";

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

test("one rule each for the batch window and the guard's threshold: the engine, the saved settings and the pane's form agree", () => {
  const accepts = (f: () => unknown) => {
    try {
      f();
      return true;
    } catch {
      return false;
    }
  };
  const form = (batchWindow: string, guardThreshold: string) =>
    parseSettingsForm({ baseUrl: "", batchWindow, language: "", guardThreshold }).ok;
  for (const w of [-1, 0, 40, 4999.5, 5000, 5001, Number.NaN]) {
    expect({ w, engine: accepts(() => getValidEngineOptions({ ...base, windowMs: w })) }).toEqual({ w, engine: isBatchWindow(w) });
    expect({ w, form: form(String(w), "") }).toEqual({ w, form: isBatchWindow(w) && Number.isInteger(w) }); // the form wants a whole number
  }
  for (const n of [-1, 0, 1.5, 100, 2 ** 53]) {
    const engine = accepts(() => getValidEngineOptions({ ...base, guardThreshold: n }));
    expect({ n, engine, saved: parseGuardThreshold(String(n)) === n, form: form("", String(n)) }).toEqual({
      n,
      engine: isGuardThreshold(n),
      saved: isGuardThreshold(n),
      form: isGuardThreshold(n),
    });
  }
});
