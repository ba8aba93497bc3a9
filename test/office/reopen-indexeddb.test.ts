/**
 * The built functions bundle in a runtime that is a browser page (the Excel stand-in with an
 * `indexedDB`, fake-indexeddb's): the bundle's own feature detection picks the IndexedDB tier, and a
 * workbook reopened over the same browser storage recalculates for free even when OfficeRuntime.storage's
 * 8 MB of shards kept none of it. Without `indexedDB` (the JavaScript-only runtime), the same reopen pays
 * again: the tier is what saves the calls. Bench W7 does the same with 100,000 companies.
 */
import { IDBFactory } from "fake-indexeddb";
import { ExcelStandIn, StandInStorage, type StandInOptions } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

jest.setTimeout(120_000);

let sb: Sandbox;
let n = 0;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

const cuis = data.sampleCuis(600, 41_000);
const names = cuis.map((c) => [[data.company(c)!.denumire]]);

function open(storage: StandInStorage, key: string, options: StandInOptions): ExcelStandIn {
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", sb.url);
  storage.data.set("firma.batchWindowMs", "5");
  return new ExcelStandIn(storage, undefined, options);
}

const fill = (xl: ExcelStandIn) => Promise.all(cuis.map((c) => xl.call("DENUMIRE", [c])));
/** The answers' shards in OfficeRuntime.storage, gone (as if another add-in on the domain had taken the room). */
const dropShards = (storage: StandInStorage) => {
  for (const k of [...storage.data.keys()]) if (k.startsWith("firma.c2.")) storage.data.delete(k);
};

test.each([
  ["a browser page with IndexedDB: 0 calls", { indexedDB: new IDBFactory() }, 0],
  ["the JavaScript-only runtime (no IndexedDB): every batch again", {}, Math.ceil(cuis.length / 100)],
])("reopened without OfficeRuntime.storage's shards, in %s", async (_, options: StandInOptions, again) => {
  const key = `demo-enterprise-idb${++n}`;
  const storage = new StandInStorage();
  expect(await fill(open(storage, key, options))).toEqual(names);
  const spent = sb.usage(key).total;
  expect(spent).toBe(Math.ceil(cuis.length / 100));
  // The tier writes IndexedDB at most every 5 s (src/office/tiered-answers.ts): the reopen comes later.
  await new Promise((r) => setTimeout(r, 6000));
  dropShards(storage);
  expect(await fill(open(storage, key, options))).toEqual(names);
  expect(sb.usage(key).total - spent).toBe(again);
});
