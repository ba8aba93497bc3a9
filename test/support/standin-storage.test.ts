/**
 * The OfficeRuntime.storage stand-in (standin-storage.ts): 10 MB per domain counted as office.js's web
 * implementation stores it (localStorage, UTF-16, "_OfficeRuntime_Storage_" before each key), its quota
 * error, setItems' partial writes, and reads that fail or never settle.
 */
import { StandInStorage, STORAGE_QUOTA_BYTES } from "./standin-storage";

const PREFIX = "_OfficeRuntime_Storage_".length;

describe("OfficeRuntime.storage stand-in", () => {
  test("10 MB per domain, 2 bytes per UTF-16 code unit of prefix, key and value", async () => {
    const s = new StandInStorage();
    expect(STORAGE_QUOTA_BYTES).toBe(10 * 1024 * 1024);
    const fits = "x".repeat(STORAGE_QUOTA_BYTES / 2 - PREFIX - 1);
    await s.setItem("k", fits);
    expect(s.usedBytes).toBe(STORAGE_QUOTA_BYTES);
    await expect(s.setItem("j", "")).rejects.toMatchObject({ name: "QuotaExceededError" });
    expect(await s.getItem("j")).toBeNull();
    // Replacing an item counts its new size only.
    await s.setItem("k", "y".repeat(10));
    expect(s.usedBytes).toBe(2 * (PREFIX + 1 + 10));
  });

  test("a value over the quota is refused whole, the old one kept", async () => {
    const s = new StandInStorage(new Map(), 1000);
    await s.setItem("a", "1");
    await expect(s.setItem("a", "z".repeat(1000))).rejects.toMatchObject({ name: "QuotaExceededError" });
    expect(await s.getItem("a")).toBe("1");
    expect(s.quotaErrors).toBe(1);
  });

  test("other add-ins of the domain take their share", async () => {
    const s = new StandInStorage(new Map(), 1000);
    s.usedByOthers = 900;
    await expect(s.setItem("a", "z".repeat(40))).rejects.toMatchObject({ name: "QuotaExceededError" });
  });

  test("setItems writes what fits and fails with office.js's 'Unknown error.'", async () => {
    const s = new StandInStorage(new Map(), 2 * (PREFIX + 1 + 100) + 10);
    await expect(s.setItems({ a: "x".repeat(100), b: "y".repeat(100), c: "1" })).rejects.toThrow("Unknown error.");
    expect(await s.getItems(["a", "b", "c"])).toEqual({ a: "x".repeat(100), b: null, c: null });
  });

  test("reads can fail or never settle", async () => {
    const s = new StandInStorage(new Map([["a", "1"]]));
    s.faults.read = "reject";
    await expect(s.getItem("a")).rejects.toThrow();
    await expect(s.getItems(["a"])).rejects.toThrow();
    s.faults.read = "hang";
    const settled = await Promise.race([s.getItem("a").then(() => "settled"), new Promise((r) => setTimeout(() => r("waiting"), 50))]);
    expect(settled).toBe("waiting");
    s.faults.read = undefined;
    expect(await s.getItem("a")).toBe("1");
    expect(await s.getKeys()).toEqual(["a"]);
    await s.removeItems(["a"]);
    expect(await s.getKeys()).toEqual([]);
  });
});
