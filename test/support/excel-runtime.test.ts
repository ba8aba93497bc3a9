/**
 * The BUILT functions bundle in the runtime stand-in held to the rules the second reading of the pages
 * found the stand-in lenient on (excel/rules.ts, excel/functions-runtime.ts, standin-storage.ts): what loads by the naming page, a
 * cell recalculated whatever the order of its old call's cancellation, error inputs where data types are
 * off, and OfficeRuntime.storage full or failing to read.
 */
import { ExcelStandIn, StandInError, StandInStorage, errorCell, type CancelOrder } from "./excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let serial = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, latencyMs: 100 });
});
afterAll(async () => {
  await sb.close();
});

function storage(): StandInStorage {
  const s = new StandInStorage();
  s.data.set("firma.apiKey", `demo-enterprise-rules${++serial}`);
  s.data.set("firma.baseUrl", sb.url);
  s.data.set("firma.batchWindowMs", "5");
  return s;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("what loads (custom-functions-naming)", () => {
  test.each(["functions.json", "functions-en.json"])("%s: every function loads, CA only as the named exception", (metadataFile) => {
    const xl = new ExcelStandIn(storage(), undefined, { metadataFile });
    expect([...xl.notLoaded.keys()]).toEqual([]);
    expect(xl.exceptions).toEqual(["CA"]);
  });

  test("'Only asynchronous custom functions which return one value can use the @cancelable JSDoc tag': a cancelable matrix function does not load", () => {
    // custom-functions-web-reqs#cancel-a-function. FIRMA's functions return a matrix and are not cancelable.
    const xl = new ExcelStandIn(storage(), undefined, { manifest: "manifest-legate.xml" });
    expect(xl.metadata.filter((f) => f.options?.cancelable)).toEqual([]);
    // Every one that returns a matrix (the linked companies' load service, in the linked edition's metadata, returns one value).
    const matrix = xl.metadata.filter((f) => f.result?.dimensionality === "matrix");
    expect(matrix.length).toBe(xl.metadata.length - 1);
    xl.runtime.load({ functions: matrix.map((f) => ({ ...f, options: { ...f.options, cancelable: true } })) });
    expect(xl.notLoaded.size).toBe(matrix.length);
  });
});

describe("a cell recalculated while its call waits (custom-functions-web-reqs: the order is not guaranteed)", () => {
  const orders: CancelOrder[] = ["cancelFirst", "invokeFirst", "together"];
  test.each(orders)("%s: the new call answers the value", async (order) => {
    const xl = new ExcelStandIn(storage());
    const [cui] = data.sampleCuis(1, 71_000 + orders.indexOf(order) * 100);
    const old: { onCanceled?: () => void } = {};
    const first = xl.call("DENUMIRE", [cui], old);
    await pause(1);
    const again = await xl.recalculate("DENUMIRE", [cui], old, order);
    expect(again).toEqual([[data.company(cui)!.denumire]]);
    await first; // settles (cancelled or answered), whatever its order
  });
});

describe("error inputs", () => {
  test("with data types off an error reaches the function as a CustomFunctions.Error, and FIRMA answers with it", async () => {
    const xl = new ExcelStandIn(storage(), undefined, { requirementSets: { CustomFunctionsRuntime: "1.3" } });
    const got = await xl.call("DENUMIRE", [errorCell("#DIV/0!")]);
    expect(got).toBeInstanceOf(StandInError);
    expect((got as StandInError).code).toBe("#DIV/0!");
  });
});

describe("OfficeRuntime.storage (10 MB per domain; reads that fail)", () => {
  test("a domain whose storage is full: the cell still gets its value", async () => {
    const s = storage();
    s.usedByOthers = s.quotaBytes - s.usedBytes - 10;
    const xl = new ExcelStandIn(s);
    const [cui] = data.sampleCuis(1, 72_000);
    expect(await xl.call("DENUMIRE", [cui])).toEqual([[data.company(cui)!.denumire]]);
  });

  // A function that fails shows #VALUE! ("By default, Excel returns #VALUE! for unhandled errors or
  // exceptions", custom-functions-errors); the stand-in rejects `call` with what the function threw.
  const settled = (p: Promise<unknown>) =>
    p.then(
      (v) => v,
      () => "#VALUE! (unhandled)",
    );

  test("reads that fail: the cell settles", async () => {
    const s = storage();
    s.faults.read = "reject";
    const xl = new ExcelStandIn(s);
    const [cui] = data.sampleCuis(1, 73_000);
    expect(await settled(xl.call("DENUMIRE", [cui]))).toBeDefined();
  });

  test("reads that never settle: the cell settles all the same (the settings' read gives up after 3 s)", async () => {
    const s = storage();
    s.faults.read = "hang";
    const xl = new ExcelStandIn(s);
    const [cui] = data.sampleCuis(1, 74_000);
    const got = await Promise.race([settled(xl.call("DENUMIRE", [cui])), pause(10_000).then(() => "still waiting")]);
    expect(got).not.toBe("still waiting");
    // Once storage answers again, the next calculation reads the settings again and gets the value.
    s.faults.read = undefined;
    expect(await xl.call("DENUMIRE", [cui])).toEqual([[data.company(cui)!.denumire]]);
  }, 20_000);
});

describe("the page that serves the runtime (servedBy: lanes.ts reads its Resource Timing)", () => {
  /** 15 batches of 100 names at 1.5 s a call: how far apart the sandbox answered the first and the last. */
  async function spread(servedBy?: { origin: string; protocol: string }): Promise<number> {
    const s = storage();
    // A plan the user chose: no pacing near the Free plan's daily limit (gate.ts), only the lanes.
    s.data.set("firma.plan", "pro");
    const key = s.data.get("firma.apiKey");
    const xl = new ExcelStandIn(s, undefined, servedBy ? { servedBy } : {});
    const cuis = data.sampleCuis(1_500, 77_000);
    sb.config.latencyMs = 1_500;
    try {
      await Promise.all(cuis.map((c) => xl.call("DENUMIRE", [c])));
    } finally {
      sb.config.latencyMs = 100;
    }
    const at = sb.requests.filter((r) => r.key === key).map((r) => r.at);
    expect(at).toHaveLength(15);
    return Math.max(...at) - Math.min(...at);
  }

  // 6 at a time: three rounds at least (the last answer two rounds after the first); over h2 to the
  // page's own origin the calls are not held to 6 from the first (the page's own load says h2): one round.
  test("served over h2 by the service's own origin, all 15 calls are out at once from the first; otherwise 6", async () => {
    expect(await spread()).toBeGreaterThanOrEqual(2_900);
    expect(await spread({ origin: sb.url, protocol: "h2" })).toBeLessThan(1_000);
  }, 30_000);
});
