import { EntryMap } from "../../src/engine/cache/entry-map";
import { answerNumber, answerNumberOf, financialKey, profileKey } from "../../src/engine/keys";
import { entry } from "../../src/engine/cache/lru-order";
import { PersistentCache } from "../../src/engine/cache/cache";
import { MemoryStore } from "../../src/engine/cache/store";

describe("a company's answers by number (entry-map.ts)", () => {
  test("every key profileKey and financialKey make has the number answerNumberOf gives, and no two share one", () => {
    const seen = new Map<number, string>();
    for (const cui of [10, 19, 14399840, 9_999_999_999, 123_456_789_012]) {
      for (const [kind, year, key] of [
        ["profile", 0, profileKey(cui)],
        ["financial", 1900, financialKey(cui, 1900)],
        ["financial", 2024, financialKey(cui, 2024)],
        ["financial", 5995, financialKey(cui, 5995)],
      ] as const) {
        const n = answerNumberOf(kind, cui, year);
        expect(n).toBeDefined();
        expect(answerNumber(key)).toBe(n);
        expect(seen.get(n!)).toBeUndefined();
        seen.set(n!, key);
      }
    }
  });

  test("other keys, and answers outside the numbered range, are found by their text alone", () => {
    for (const key of ["l:judete", "p:0123", "p:12.5", "f:123:99", "f:123:02024", "p:1234567890123", "q:1", ""])
      expect(answerNumber(key)).toBeUndefined();
    expect(answerNumberOf("financial", 123, 1899)).toBeUndefined();
    expect(answerNumberOf("financial", 123, 5996)).toBeUndefined();
    expect(answerNumberOf("financial", 123, 2024.5)).toBeUndefined();
    expect(answerNumberOf("profile", 1e12, 0)).toBeUndefined();
    expect(answerNumberOf("profile", 0, 0)).toBeUndefined();
    expect(answerNumber(financialKey(123, 1899))).toBeUndefined(); // the same answer, by text either way
  });

  test("the map finds an entry by its key or its number, deletes and counts across both", () => {
    const m = new EntryMap();
    const keys = [profileKey(14399840), financialKey(14399840, 2024), financialKey(14399840, 1850), "l:judete"];
    for (const k of keys) m.set(k, entry(k, { k }, 1, 0, 0, 10));
    expect(m.size).toBe(4);
    expect(m.at(answerNumberOf("financial", 14399840, 2024)!)?.[0]).toEqual({ k: financialKey(14399840, 2024) });
    for (const k of keys) expect(m.get(k)?.[5]).toBe(k);
    expect([...m].map(([k]) => k).sort()).toEqual([...keys].sort());
    expect(m.delete(profileKey(14399840))).toBe(true);
    expect(m.has(profileKey(14399840))).toBe(false);
    expect(m.at(14399840)).toBeUndefined();
    expect(m.size).toBe(3);
  });

  test("the cache answers a read by number what it holds by key, counts the hit and moves it up the LRU order", () => {
    let now = 1_000;
    const cache = new PersistentCache(new MemoryStore(), { now: () => now, saveDelayMs: 0 });
    cache.set(financialKey(14399840, 2024), { cifra_afaceri: 5 }, 100);
    cache.set(profileKey(14399840), { denumire: "X" }, 100);
    expect(cache.freshValueAt(answerNumberOf("financial", 14399840, 2024)!)).toEqual({ cifra_afaceri: 5 });
    expect(cache.hits).toBe(1);
    now += 100; // expired: not fresh, still there
    expect(cache.freshValueAt(answerNumberOf("profile", 14399840, 0)!)).toBeUndefined();
    expect(cache.peek(profileKey(14399840))?.value).toEqual({ denumire: "X" });
  });
});
