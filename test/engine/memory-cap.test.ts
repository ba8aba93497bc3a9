/**
 * The in-memory cache's cap (cache.ts) moves the least recently used answers out of memory, not out
 * of FIRMA: the store keeps them, and a cell asking for one again reads it back (answers.ts) instead
 * of paying a call for it. Over real HTTP on loopback, against the sandbox's counters.
 */
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { read } from "../support/engine-reads";
import { sandboxPerFile } from "../support/sandbox-per-file";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, latencyMs: 0 }));
let n = 0;

function engineWithCap(maxCacheEntries: number) {
  const key = `demo-pro-cap${++n}`;
  const engine = new FirmaEngine({ baseUrl: sb.url, apiKey: () => key, store: new MemoryStore(), windowMs: 5, maxCacheEntries });
  return { engine, calls: () => sb.usage(key).total };
}

test("300 names with room for 100 in memory: asking for the first 100 again reads them back from the store, 0 calls", async () => {
  const { engine, calls } = engineWithCap(100);
  await engine.ready();
  const cuis = data.sampleCuis(300, 610_000);
  const first = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
  expect(calls()).toBe(3);
  await engine.persist();
  expect(engine.cacheStats().entries).toBeLessThanOrEqual(100);
  const again = await Promise.all(cuis.slice(0, 100).map((c) => read(() => engine.profileField(c, "denumire"))));
  expect(again).toEqual(first.slice(0, 100));
  expect(calls()).toBe(3);
});

test("the answers read back count against the cap too: the memory never holds more than it allows", async () => {
  const { engine, calls } = engineWithCap(100);
  await engine.ready();
  const cuis = data.sampleCuis(300, 620_000);
  await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "judet"))));
  await engine.persist();
  for (const slice of [cuis.slice(0, 100), cuis.slice(100, 200), cuis.slice(200)]) {
    await Promise.all(slice.map((c) => read(() => engine.profileField(c, "judet"))));
    expect(engine.cacheStats().entries).toBeLessThanOrEqual(100);
  }
  expect(calls()).toBe(3);
});
