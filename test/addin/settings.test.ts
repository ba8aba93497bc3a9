/**
 * The pane's settings module: where the key is kept, and that the pane and the functions (two
 * bundles in one runtime) see the same settings.
 */
import type { KeyValueStore } from "../../src/engine/cache/store";
import * as settings from "../../src/shared/settings";

/** A store that records what was written. */
function recordingStore(initial: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: async (k) => data.get(k) ?? null,
    setItem: async (k, v) => void data.set(k, v),
    removeItem: async (k) => void data.delete(k),
  };
}

const g = globalThis as Record<string, unknown>;

afterEach(() => {
  delete g.OfficeRuntime;
  delete g.localStorage;
});

describe("settings", () => {
  test("without webpack, the default service address is the local sandbox", () => {
    expect(settings.DEFAULT_BASE_URL).toBe("http://127.0.0.1:3001");
  });

  test("loads what storage holds, and defaults what it does not", async () => {
    settings.useStore(recordingStore({ [settings.STORAGE_KEYS.apiKey]: " demo-pro " }));
    await expect(settings.loadSettings()).resolves.toMatchObject({
      apiKey: "demo-pro",
      baseUrl: "http://127.0.0.1:3001",
    });
    expect(settings.getApiKey()).toBe("demo-pro");
  });

  test("saves the key trimmed; an empty key removes it", async () => {
    const store = recordingStore();
    settings.useStore(store);
    await settings.saveApiKey("  demo-business  ");
    expect(store.data.get(settings.STORAGE_KEYS.apiKey)).toBe("demo-business");
    expect(settings.getApiKey()).toBe("demo-business");
    await settings.saveApiKey("   ");
    expect(store.data.has(settings.STORAGE_KEYS.apiKey)).toBe(false);
    expect(settings.getApiKey()).toBeNull();
  });

  test("saves the service address; empty goes back to the default", async () => {
    const store = recordingStore();
    settings.useStore(store);
    await settings.saveBaseUrl("https://api.example.ro/v4");
    expect(settings.getSettings().baseUrl).toBe("https://api.example.ro/v4");
    await settings.saveBaseUrl("");
    expect(settings.getSettings().baseUrl).toBe(settings.DEFAULT_BASE_URL);
    expect(store.data.size).toBe(0);
  });

  test("reads storage once; a failed read is tried again", async () => {
    let reads = 0;
    let fail = true;
    settings.useStore({
      getItem: async () => {
        reads++;
        if (fail) throw new Error("storage down");
        return null;
      },
      setItem: async () => undefined,
      removeItem: async () => undefined,
    });
    await expect(settings.loadSettings()).rejects.toThrow("storage down");
    fail = false;
    await settings.loadSettings();
    await settings.loadSettings();
    const keys = Object.keys(settings.STORAGE_KEYS).length;
    expect(reads).toBe(2 * keys); // every key, for the failed load and the good one; then the cached promise
  });
});

describe("settings store choice", () => {
  test("OfficeRuntime.storage when the runtime has it (the Office surfaces prefer it at start), and a store in use stays", async () => {
    const storage = recordingStore();
    g.OfficeRuntime = { storage };
    let fresh!: typeof settings;
    let office!: typeof import("../../src/office/storage");
    jest.isolateModules(() => {
      fresh = require("../../src/shared/settings");
      office = require("../../src/office/storage");
    });
    office.useOfficeStorage();
    expect(fresh.settingsStore()).toBe(storage);
    await fresh.saveApiKey("demo-pro-office");
    expect(storage.data.get(fresh.STORAGE_KEYS.apiKey)).toBe("demo-pro-office");
    fresh.preferStore(recordingStore());
    expect(fresh.settingsStore()).toBe(storage);
  });

  test("else localStorage", async () => {
    const data = new Map<string, string>();
    g.localStorage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    const store = settings.defaultStore();
    await store.setItem("x", "1");
    expect(data.get("x")).toBe("1");
    await expect(store.getItem("x")).resolves.toBe("1");
  });

  test("else memory", async () => {
    const store = settings.defaultStore();
    await store.setItem("x", "2");
    await expect(store.getItem("x")).resolves.toBe("2");
  });
});
