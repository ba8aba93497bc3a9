/**
 * Excel does not cancel FIRMA's functions, and nothing is stuck or paid twice for it. Every FIRMA
 * function returns a matrix (a range of CUIs answers in its shape), and "Only asynchronous custom
 * functions which return one value can use the @cancelable JSDoc tag"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs#cancel-a-function), so
 * the metadata has no `cancelable` and the stand-in refuses a function that has both
 * (test/support/excel/rules.ts optionProblems). What losing the cancel costs (docs/excel.md, "Cancel"):
 * a cell edited, deleted or recalculated while it waits keeps its place in the batch; its CUI is fetched
 * and cached, and Excel drops the stale answer. Through the BUILT bundle in the Excel runtime stand-in
 * (test/support/builds.js).
 */
import { ExcelStandIn, StandInStorage } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

const LATENCY_MS = 200;
let sb: Sandbox;
let serial = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, latencyMs: LATENCY_MS });
});
afterAll(async () => {
  await sb.close();
});

function excel() {
  const key = `demo-enterprise-cancel${++serial}`;
  const storage = new StandInStorage();
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", sb.url);
  storage.data.set("firma.batchWindowMs", "5");
  return { xl: new ExcelStandIn(storage), calls: () => sb.usage(key).total };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("no FIRMA function is cancelable: each returns a matrix (the linked companies' load service one value), and every one loads", () => {
  const { xl } = excel();
  for (const f of xl.metadata) {
    const dims = f.options?.linkedEntityLoadService ? undefined : "matrix";
    expect([f.id, f.result?.dimensionality]).toEqual([f.id, dims]);
    expect([f.id, f.options?.cancelable ?? false]).toEqual([f.id, false]);
  }
  expect([...xl.notLoaded.keys()]).toEqual([]);
});

test("the stand-in holds the page: the same metadata with cancelable on a matrix function does not load (#NAME?)", async () => {
  const { xl } = excel();
  xl.runtime.load({ functions: xl.metadata.map((f) => (f.id === "STARE" ? { ...f, options: { ...f.options, cancelable: true } } : f)) });
  expect(xl.notLoaded.get("STARE")).toEqual([expect.stringMatching(/only functions which return one value can be cancelable/)]);
  const [cui] = data.sampleCuis(1, 902_000);
  expect(await xl.call("STARE", [cui])).toMatchObject({ code: "#NAME?" });
});

describe("a cell changed while its call waits (Excel gives no onCanceled)", () => {
  test("the old call still settles with its value, Excel drops it, and the CUI is cached: asking again costs nothing", async () => {
    const { xl, calls } = excel();
    const [a, b] = data.sampleCuis(2, 903_000);
    const inv: { onCanceled?: (() => void) | null } = {};
    const old = xl.call("DENUMIRE", [a], inv);
    await pause(50); // the batch is on its way
    const edited = xl.call("DENUMIRE", [b]);
    expect(inv.onCanceled ?? null).toBeNull(); // FIRMA hooks nothing Excel would not call
    expect(await old).toEqual([[data.company(a)!.denumire]]);
    expect(await edited).toEqual([[data.company(b)!.denumire]]);
    expect(calls()).toBe(2); // a's batch had left before b was typed: what a cancel could not have saved either
    expect(await xl.call("DENUMIRE", [a])).toEqual([[data.company(a)!.denumire]]);
    expect(calls()).toBe(2);
  });

  test("a cell recalculated (the same CUI) while it waits joins the call on its way: one credit", async () => {
    const { xl, calls } = excel();
    const [a] = data.sampleCuis(1, 904_000);
    const first = xl.call("CA", [a, data.LATEST_YEAR]);
    await pause(50);
    const again = xl.call("CA", [a, data.LATEST_YEAR]);
    expect(await again).toEqual(await first);
    expect(calls()).toBe(1);
  });
});
