/**
 * The Excel API stand-in (test/support/excel/, its bundled script run here in Node as sheets.test.ts runs it) held to the
 * rules of test/support/excel/rules.ts and functions-runtime.ts, with functions of its own rather than FIRMA's: what loads by the naming page,
 * entities by the card page, error inputs, a range for a scalar parameter, the order of a recalculated
 * cell's cancellation, and the 5MB payload counted in UTF-8 bytes.
 */
import * as vm from "vm";
import { standInScript } from "../support/excel/bundle";

const STANDIN = standInScript();

type Fn = (...args: unknown[]) => unknown;
interface Meta {
  id: string;
  name: string;
  parameters: { name: string; type?: string; dimensionality?: string; optional?: boolean }[];
  result: { dimensionality?: string };
  options?: { cancelable?: boolean; stream?: boolean };
}
interface S {
  functions: Map<string, Fn>;
  notLoaded: Map<string, string[]>;
  namingExceptions: string[];
  violations: string[];
  unspecified: string[];
  customFunctionsRuntime: string;
  cancelOrder: string;
  setup(def: { sheets: Record<string, Record<string, unknown>> }): Promise<void>;
  calculateAll(): void;
  idle(): Promise<void>;
  cell(sheet: string, addr: string): { value: unknown; error: string | null; rich: unknown };
}

const one = (id: string, extra: Partial<Meta> = {}): Meta => ({
  id,
  name: id,
  parameters: [{ name: "x", type: "any" }],
  result: { dimensionality: "scalar" },
  ...extra,
});

/** A stand-in whose functions.json is `functions` (with both flags), and its Excel global. */
function standIn(
  functions: Meta[],
  fns: Record<string, Fn>,
): { S: S; Excel: { run(f: (ctx: unknown) => Promise<unknown>): Promise<unknown> } } {
  const json = { allowCustomDataForDataTypeAny: true, allowErrorForDataTypeAny: true, functions };
  const win: Record<string, unknown> = { setTimeout, clearTimeout, console, fetch: async () => ({ json: async () => json }) };
  win.window = win;
  win.top = win;
  vm.runInContext(STANDIN, vm.createContext(win));
  const S = win.__firmaStandIn as S;
  for (const [id, f] of Object.entries(fns)) S.functions.set(id, f);
  return { S, Excel: win.Excel as never };
}

describe("what loads (custom-functions-naming)", () => {
  test("an id or name under 3 characters answers #NAME?; CA loads as the named exception", async () => {
    const { S } = standIn([one("AB"), one("CA"), one("ABC", { name: "A1" })], { AB: () => 1, CA: () => 2, ABC: () => 3 });
    await S.setup({ sheets: { F: { A1: "=FIRMA.AB(1)", A2: "=FIRMA.CA(1)", A3: "=FIRMA.ABC(1)" } } });
    S.calculateAll();
    await S.idle();
    expect([S.cell("F", "A1").error, S.cell("F", "A2").value, S.cell("F", "A3").error]).toEqual(["#NAME?", 2, "#NAME?"]);
    expect([...S.notLoaded.keys()]).toEqual(["AB", "ABC"]);
    expect(S.namingExceptions).toEqual(["CA"]);
  });
});

describe("entities (excel-data-types-entity-card)", () => {
  const card = (extra: object) => ({ type: "Entity", text: "ALFA", properties: { CUI: { type: "Double", basicValue: 1 } }, ...extra });

  test("an entity answered without text, or with a layout naming a missing property, shows #VALUE!", async () => {
    const { S } = standIn([one("FISA")], {
      FISA: (x: unknown) =>
        x === 1 ? card({ text: undefined }) : card({ layouts: { card: { sections: [{ layout: "List", properties: ["Stare"] }] } } }),
    });
    S.customFunctionsRuntime = "1.4";
    await S.setup({ sheets: { F: { A1: "=FIRMA.FISA(1)", A2: "=FIRMA.FISA(2)" } } });
    S.calculateAll();
    await S.idle();
    expect([S.cell("F", "A1").error, S.cell("F", "A2").error]).toEqual(["#VALUE!", "#VALUE!"]);
    expect(S.violations.join("\n")).toMatch(/no text[\s\S]*names Stare/);
  });

  test("Range.valuesAsJson refuses an entity whose property has no basicValue", async () => {
    const { S, Excel } = standIn([], {});
    await S.setup({ sheets: { F: {} } });
    const write = (v: object) =>
      Excel.run(async (ctx: any) => {
        ctx.workbook.worksheets.getItem("F").getRange("A1").valuesAsJson = [[v]];
        await ctx.sync();
      });
    await expect(write(card({ properties: { CUI: { type: "Double" } } }))).rejects.toMatchObject({ code: "InvalidArgument" });
    await expect(write(card({}))).resolves.toBeUndefined();
  });
});

describe("arguments", () => {
  test("an error reaches only an any parameter, as a CustomFunctions.Error where data types are off", async () => {
    const seen: unknown[] = [];
    const { S } = standIn([one("ANY"), one("NUM", { parameters: [{ name: "x", type: "number" }] })], {
      ANY: (x: unknown) => (seen.push(x), 1),
      NUM: () => 2,
    });
    await S.setup({ sheets: { F: { B1: "#N/A", A1: "=FIRMA.ANY(B1)", A2: "=FIRMA.NUM(B1)" } } });
    S.calculateAll();
    await S.idle();
    expect(S.cell("F", "A1").value).toBe(1);
    expect(seen[0]).toMatchObject({ code: "#N/A" });
    expect(seen[0]).not.toHaveProperty("type");
    expect(S.cell("F", "A2").error).toBe("#N/A");
  });

  test("a range for a scalar parameter is handed on as it is (no cell picked) and recorded", async () => {
    const seen: unknown[] = [];
    const { S } = standIn([one("ANY")], { ANY: (x: unknown) => (seen.push(x), 1) });
    await S.setup({ sheets: { F: { B1: 1, B2: 2, A1: "=FIRMA.ANY(B1:B2)" } } });
    S.calculateAll();
    await S.idle();
    expect(seen).toEqual([[[1], [2]]]);
    expect(S.unspecified).toHaveLength(1);
  });
});

describe("a recalculated cell's old call (custom-functions-web-reqs: the order is not guaranteed)", () => {
  test.each(["cancelFirst", "invokeFirst", "together"])("%s: the old call is cancelled and its answer not shown", async (order) => {
    const events: string[] = [];
    let n = 0;
    const slow = (_x: unknown, inv: { onCanceled: (() => void) | null }) => {
      const me = ++n;
      events.push(`call ${me}`);
      inv.onCanceled = () => events.push(`cancel ${me}`);
      return new Promise((r) => setTimeout(() => r(me), me === 1 ? 30 : 5));
    };
    const { S } = standIn([one("SLOW", { options: { cancelable: true } })], { SLOW: slow as Fn });
    S.cancelOrder = order;
    await S.setup({ sheets: { F: { A1: "=FIRMA.SLOW(1)" } } });
    S.calculateAll();
    S.calculateAll();
    await S.idle();
    await new Promise((r) => setTimeout(r, 40));
    expect(S.cell("F", "A1").value).toBe(2);
    expect(events).toEqual(order === "cancelFirst" ? ["call 1", "cancel 1", "call 2"] : ["call 1", "call 2", "cancel 1"]);
  });
});

describe("the 5MB payload (resource-limits: bytes)", () => {
  test("an answer of 3M two-byte characters (6 MB of UTF-8) is over the limit", async () => {
    const { S, Excel } = standIn([], {});
    await S.setup({ sheets: { F: { A1: { value: "ș".repeat(3_000_000) } } } });
    const read = Excel.run(async (ctx: any) => {
      const r = ctx.workbook.worksheets.getItem("F").getRange("A1").load("values");
      await ctx.sync();
      return r.values;
    });
    await expect(read).rejects.toMatchObject({ code: "ResponsePayloadSizeLimitExceeded" });
  });
});
