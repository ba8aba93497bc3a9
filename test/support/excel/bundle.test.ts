/**
 * The browser stand-in is made from its TypeScript sources, never kept by hand: the script the pane's
 * tests and the bench inject (bundle.ts standInScriptPath) is what esbuild makes of test/support/excel/
 * now, and it installs the stand-in in a page (here a vm context standing in for one) and only there.
 */
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";
import { bundleStandIn, sourcesHash, standInScript, standInScriptPath, standInSources } from "./bundle";

const page = (top?: unknown) => {
  const win: Record<string, unknown> = { setTimeout, clearTimeout, console };
  win.window = win;
  win.top = top ?? win;
  vm.runInContext(standInScript(), vm.createContext(win));
  return win;
};

test("the injected script is the bundle of the sources as they are now", () => {
  expect(fs.readFileSync(standInScriptPath(), "utf8")).toBe(bundleStandIn());
  const names = standInSources().map((f) => path.basename(f));
  expect(names).toEqual(expect.arrayContaining(["browser.ts", "functions-runtime.ts", "excel-api.ts", "office.ts", "rules.ts"]));
  expect(fs.existsSync(path.join(__dirname, "..", "..", "taskpane", "excel-standin.js"))).toBe(false);
});

test("a change to a source makes another script", () => {
  const sources = standInSources().map((f): [string, string] => [path.basename(f), fs.readFileSync(f, "utf8")]);
  expect(path.basename(standInScriptPath())).toBe(`excel-standin-${sourcesHash(sources)}.js`);
  const changed = sources.map(([name, text]): [string, string] => [name, name === "rules.ts" ? `${text}\n// a change\n` : text]);
  expect(sourcesHash(changed)).not.toBe(sourcesHash(sources));
});

test("in the page it installs Excel and window.__firmaStandIn; in a frame, nothing", async () => {
  const win = page();
  const S = win.__firmaStandIn as { setup(d: unknown): Promise<void>; cell(s: string, a: string): { value: unknown } };
  expect(typeof (win.Excel as { run?: unknown }).run).toBe("function");
  (S as unknown as { meta: unknown[]; metaPromise: Promise<void> }).meta = [];
  (S as unknown as { metaPromise: Promise<void> }).metaPromise = Promise.resolve();
  await S.setup({ sheets: { F: { A1: "0111", A2: '=A1&"x"' } } });
  expect([S.cell("F", "A1").value, S.cell("F", "A2").value]).toEqual([111, "111x"]);
  const frame = page({});
  expect(frame.__firmaStandIn).toBeUndefined();
  expect(frame.Excel).toBeUndefined();
});
