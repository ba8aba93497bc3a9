/**
 * The browser stand-in's workbook.linkedEntityDataDomains (linked-domains.ts), its bundled script run in
 * Node as standin-rules.test.ts runs it, with a load service of its own: as strict as the pages
 * (excel.linkedentitydatadomaincollection, excel.linkedentitydatadomaincreateoptions,
 * excel.linkedentitydatadomain, excel-data-types-linked-entity-cell-values).
 */
import * as vm from "vm";
import { standInScript } from "./bundle";

const STANDIN = standInScript();
const SERVICE = 268436224;

type Ctx = { workbook: Record<string, any>; sync(): Promise<void> };
interface Linked {
  domains: Map<string, Record<string, unknown>>;
  requests: string[];
  violations: string[];
}
interface S {
  excelApi: string;
  linked: Linked;
  functions: Map<string, (...a: unknown[]) => unknown>;
  loadMeta(): Promise<void>;
  setup(def: { sheets: Record<string, Record<string, unknown>> }): Promise<void>;
  idle(): Promise<void>;
  cell(sheet: string, addr: string): { value: unknown; rich: Record<string, any> | null; error: string | null };
}

const LOAD = {
  id: "LOAD",
  name: "LOAD",
  parameters: [{ name: "request", type: "any" }],
  result: {},
  options: { linkedEntityLoadService: true },
};

/** A stand-in of ExcelApi `api` whose add-in has the load service `LOAD` (each entity named "Name <id>"). */
async function standIn(api: string) {
  const json = { allowCustomDataForDataTypeAny: true, allowErrorForDataTypeAny: true, functions: [LOAD] };
  const win: Record<string, unknown> = { setTimeout, clearTimeout, console, fetch: async () => ({ json: async () => json }) };
  win.window = win;
  win.top = win;
  vm.runInContext(STANDIN, vm.createContext(win));
  const S = win.__firmaStandIn as S;
  S.excelApi = api;
  S.functions.set("LOAD", (request: unknown) => {
    const r = JSON.parse(String(request)) as { entities: { entityId: string; culture: string }[] };
    return {
      entities: r.entities.map((e) => ({
        type: "LinkedEntity",
        text: `Name ${e.entityId}`,
        id: { entityId: e.entityId, domainId: "d", serviceId: SERVICE, culture: e.culture },
        properties: { Name: { type: "String", basicValue: `Name ${e.entityId}` } },
      })),
    };
  });
  await S.loadMeta();
  const Excel = win.Excel as { run<T>(f: (context: Ctx) => Promise<T>): Promise<T> };
  return { S, Excel };
}

const OPTIONS = { dataProvider: "P", id: "d", name: "Domain", loadFunctionId: "LOAD" };
const stub = (entityId: string) => ({
  type: "LinkedEntity",
  text: entityId,
  id: { entityId, domainId: "d", serviceId: SERVICE, culture: "ro-RO" },
});
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string }) => e.code,
  );

describe("workbook.linkedEntityDataDomains in the browser stand-in", () => {
  test("below ExcelApi 1.19 every member fails with ApiNotFound ([ API set: ExcelApi 1.19 ]); nothing is registered", async () => {
    const { S, Excel } = await standIn("1.18");
    expect(await codeOf(Excel.run(async (context) => (context.workbook.linkedEntityDataDomains.add(OPTIONS), context.sync())))).toBe(
      "ApiNotFound",
    );
    const orNull = Excel.run(async (context) => {
      context.workbook.linkedEntityDataDomains.getItemOrNullObject("d").load("id");
      await context.sync();
    });
    expect(await codeOf(orNull)).toBe("ApiNotFound");
    expect(S.linked.domains.size).toBe(0);
  });

  test("add: the required options, a unique id and name, known refresh modes, Periodic only with an interval ≥ 300 (InvalidArgument)", async () => {
    const { S, Excel } = await standIn("1.19");
    const add = (o: Record<string, unknown>) =>
      codeOf(Excel.run(async (context) => (context.workbook.linkedEntityDataDomains.add(o), context.sync())));
    expect(await add({ ...OPTIONS, loadFunctionId: undefined })).toBe("InvalidArgument");
    expect(await add({ ...OPTIONS, supportedRefreshModes: ["Hourly"] })).toBe("InvalidArgument");
    expect(await add({ ...OPTIONS, supportedRefreshModes: ["Periodic"], periodicRefreshInterval: 60 })).toBe("InvalidArgument");
    expect(await add(OPTIONS)).toBe("ok");
    expect(await add(OPTIONS)).toBe("InvalidArgument"); // the id is taken
    expect(await add({ ...OPTIONS, id: "e" })).toBe("InvalidArgument"); // the name is taken
    expect(S.linked.domains.get("d")).toMatchObject({ supportedRefreshModes: ["Manual"], refreshMode: "Manual" });
  });

  test("getItemOrNullObject, getItem, items; refreshMode set only to a supported mode; delete", async () => {
    const { Excel } = await standIn("1.19");
    const before = await Excel.run(async (context) => {
      const d = context.workbook.linkedEntityDataDomains.getItemOrNullObject("d");
      d.load("id");
      await context.sync();
      return d.isNullObject;
    });
    expect(before).toBe(true);
    expect(
      await codeOf(Excel.run(async (context) => (context.workbook.linkedEntityDataDomains.getItem("d").load("id"), context.sync()))),
    ).toBe("ItemNotFound");
    const after = await Excel.run(async (context) => {
      const domains = context.workbook.linkedEntityDataDomains;
      domains.add({ ...OPTIONS, supportedRefreshModes: ["OnLoad"] });
      domains.getItem("d").refreshMode = "Periodic"; // not supported: unchanged
      const d = domains.getItem("d");
      // eslint-disable-next-line office-addins/no-navigational-load -- a string and an array of strings (ExcelApi 1.19), not navigation properties
      d.load("refreshMode,supportedRefreshModes,name");
      domains.load("items");
      await context.sync();
      return { mode: d.refreshMode, modes: d.supportedRefreshModes, name: d.name, count: domains.items.length };
    });
    expect(after).toEqual({ mode: "OnLoad", modes: ["OnLoad"], name: "Domain", count: 1 });
    await Excel.run(async (context) => (context.workbook.linkedEntityDataDomains.getItem("d").delete(), context.sync()));
    const gone = await Excel.run(async (context) => {
      const d = context.workbook.linkedEntityDataDomains.getItemOrNullObject("d");
      d.load("id");
      await context.sync();
      return d.isNullObject;
    });
    expect(gone).toBe(true);
  });

  test("linked entities written in one sync: one request to the domain's load service; the cells hold its entities; refreshAll asks again; an unregistered domain shows #CONNECT!", async () => {
    const { S, Excel } = await standIn("1.19");
    await S.setup({ sheets: { F: { A1: "x" } } });
    const write = (ids: string[]) =>
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem("F").getRange(`A1:A${ids.length}`).valuesAsJson = ids.map((id) => [stub(id)]);
        await context.sync();
      });
    await write(["1", "2"]);
    await S.idle();
    expect(S.cell("F", "A1").error).toBe("#CONNECT!"); // no domain registered
    await Excel.run(async (context) => (context.workbook.linkedEntityDataDomains.add(OPTIONS), context.sync()));
    await write(["1", "2"]);
    await S.idle();
    expect(S.linked.requests.map((r) => JSON.parse(r))).toEqual([
      {
        domainId: "d",
        entities: [
          { entityId: "1", culture: "ro-RO" },
          { entityId: "2", culture: "ro-RO" },
        ],
      },
    ]);
    expect(S.cell("F", "A2").rich).toMatchObject({ type: "LinkedEntity", text: "Name 2", properties: { Name: { basicValue: "Name 2" } } });
    await Excel.run(async (context) => (context.workbook.linkedEntityDataDomains.refreshAll(), context.sync()));
    await S.idle();
    expect(S.linked.requests).toHaveLength(2);
    // a linked entity without the service id is refused at sync
    const bad = Excel.run(async (context) => {
      context.workbook.worksheets.getItem("F").getRange("B1").valuesAsJson = [
        [{ ...stub("3"), id: { entityId: "3", domainId: "d", culture: "ro-RO" } }],
      ];
      await context.sync();
    });
    expect(await codeOf(bad)).toBe("InvalidArgument");
    expect(S.linked.violations).toEqual([]);
  });
});
