/** The credit guard's setting: stored like the other settings, "off" kept apart from "not set". */
import { MemoryStore } from "../../src/engine/cache/store";
import * as settings from "../../src/shared/settings";

describe("the credit guard's threshold", () => {
  test('absent or unreadable → 100; "off" → null; a whole number ≥ 0 → itself', () => {
    expect(settings.parseGuardThreshold(null)).toBe(100);
    expect(settings.parseGuardThreshold("")).toBe(100);
    expect(settings.parseGuardThreshold("-3")).toBe(100);
    expect(settings.parseGuardThreshold("2.5")).toBe(100);
    expect(settings.parseGuardThreshold("off")).toBeNull();
    expect(settings.parseGuardThreshold("0")).toBe(0);
    expect(settings.parseGuardThreshold("250")).toBe(250);
  });

  test('saved and read back; the default is stored as nothing, off as "off"', async () => {
    const store = new MemoryStore();
    settings.useStore(store);
    await settings.loadSettings();
    expect(settings.getSettings().guardThreshold).toBe(100);
    await settings.saveGuardThreshold(null);
    expect(await store.getItem(settings.STORAGE_KEYS.guardThreshold)).toBe("off");
    expect(settings.getSettings().guardThreshold).toBeNull();
    await settings.saveGuardThreshold(7);
    expect(await store.getItem(settings.STORAGE_KEYS.guardThreshold)).toBe("7");
    settings.useStore(store); // a new runtime reads it from storage
    await settings.loadSettings();
    expect(settings.getSettings().guardThreshold).toBe(7);
    await settings.saveGuardThreshold(100);
    expect(await store.getItem(settings.STORAGE_KEYS.guardThreshold)).toBeNull();
  });
});
