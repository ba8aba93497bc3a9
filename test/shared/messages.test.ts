/**
 * The one catalog per language (src/shared/messages): every key in both languages, non-empty, with
 * the same placeholders; every key the pane's page refers to exists, and every key is used by some
 * surface; numbers and counts are written the way each language writes them.
 */
import * as fs from "fs";
import * as path from "path";
import { en as addinEn } from "../../src/shared/messages/en";
import { ro as addinRo } from "../../src/shared/messages/ro";
import { nodeEn } from "../../src/shared/messages/node-en";
import { nodeRo } from "../../src/shared/messages/node-ro";
import { count, formatNumber, isMessageKey, t } from "../../src/shared/messages";

// The add-in's catalog and what only the Node surfaces say, checked as one catalog per language.
const ro = { ...addinRo, ...nodeRo };
const en = { ...addinEn, ...nodeEn };

const SRC = path.resolve(__dirname, "../../src");
function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const html = fs.readFileSync(path.join(SRC, "taskpane/taskpane.html"), "utf8");
const code = walk(SRC)
  .filter((f) => f.endsWith(".ts") && !/messages[\\/](node-)?(ro|en)\.ts$/.test(f)) // the catalogs themselves do not count
  .map((f) => fs.readFileSync(f, "utf8"))
  .join("\n");
const keys = Object.keys(ro);

describe("the catalogs", () => {
  test("a key in one language only fails: Romanian and English have the same keys", () => {
    expect(Object.keys(en).filter((k) => !(k in ro))).toEqual([]);
    expect(keys.filter((k) => !(k in en))).toEqual([]);
    expect(keys.length).toBeGreaterThan(250);
  });

  test("what only the Node surfaces say stays out of the add-in's catalog, which the add-in alone reads", () => {
    const nodeOnly = /^(cli|serve|users|custody|audit|xlsx|watch|alert)\./;
    expect(Object.keys(addinRo).filter((k) => nodeOnly.test(k))).toEqual([]);
    expect(Object.keys(nodeRo).filter((k) => !nodeOnly.test(k))).toEqual([]);
    const addin = walk(SRC).filter((f) => /src[\\/](functions|taskpane|office|shared)[\\/].*\.ts$/.test(f) && !/messages[\\/]node/.test(f));
    expect(addin.filter((f) => /messages\/node"/.test(fs.readFileSync(f, "utf8")))).toEqual([]);
  });

  test("one key convention: dot paths of lowerCamel words", () => {
    expect(keys.filter((k) => !/^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)*$/.test(k))).toEqual([]);
  });

  test("every text is written in both languages, with the same placeholders", () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const k of keys) {
      const r = ro[k as keyof typeof ro];
      const e = en[k as keyof typeof ro];
      expect({ k, ro: r.trim() !== "", en: e.trim() !== "" }).toEqual({ k, ro: true, en: true });
      expect({ k, placeholders: names(r) }).toEqual({ k, placeholders: names(e) });
    }
  });

  test("plural nouns: Romanian one|few|other, English one|other; list headers have as many columns in both", () => {
    for (const k of keys.filter((x) => x.startsWith("noun."))) {
      expect({ k, ro: ro[k as keyof typeof ro].split("|").length, en: en[k as keyof typeof ro].split("|").length }).toEqual({
        k,
        ro: 3,
        en: 2,
      });
    }
    for (const k of keys.filter((x) => x.startsWith("header."))) {
      expect({ k, n: en[k as keyof typeof ro].split("|").length }).toEqual({ k, n: ro[k as keyof typeof ro].split("|").length });
    }
  });

  test("every key the pane's page refers to is in the catalog", () => {
    const used = [...html.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((k) => !isMessageKey(k))).toEqual([]);
  });

  test("every key is used by a surface (the page, or code that names it)", () => {
    // keys built from a name: plan.<plan>, noun.<noun>, lang.<lang>, usage.warn<level>.<period>,
    // cell.<kind> (a failure's kind), header.<list>, cli.cause.<kind>, cli.fs.<errno>,
    // cli.match.problem.<problem>, cli.match.stop.<stop>, cli.match.input.<kind> (firma match's row and input outcomes)
    const dynamic =
      /^(plan|noun|lang|cell|header|cli\.cause|cli\.fs|cli\.match\.(problem|stop|input))\.|^usage\.warn(80|100)\.(day|month)$/;
    const unused = keys.filter((k) => !dynamic.test(k) && !html.includes(`"${k}"`) && !code.includes(`"${k}"`));
    expect(unused).toEqual([]);
  });

  test("t() fills placeholders and formats numbers", () => {
    expect(t("ro", "usage.ofLimit", { used: 320, limit: "4.000 de credite" })).toBe("320 din 4.000 de credite");
    expect(t("en", "usage.ofLimit", { used: 13200, limit: "x" })).toBe("13,200 of x");
    expect(t("ro", "usage.ofLimit", { used: 13200, limit: "x" })).toBe("13.200 din x");
  });

  test("counts agree in number: Romanian adds “de” from 20 on", () => {
    expect([0, 1, 2, 19, 20, 100, 101, 119, 120, 1000].map((n) => count(n, "credit", "ro"))).toEqual([
      "0 credite",
      "1 credit",
      "2 credite",
      "19 credite",
      "20 de credite",
      "100 de credite",
      "101 credite",
      "119 credite",
      "120 de credite",
      "1.000 de credite",
    ]);
    expect([1, 2, 20].map((n) => count(n, "cell", "en"))).toEqual(["1 cell", "2 cells", "20 cells"]);
    expect(count(1, "firmaFormula", "ro")).toBe("1 formulă FIRMA");
    expect(count(1234, "formula", "en")).toBe("1,234 formulas");
  });

  test("an unlimited amount is said in words", () => {
    expect(formatNumber(Infinity, "ro")).toBe("nelimitat");
    expect(formatNumber(Infinity, "en")).toBe("unlimited");
  });
});

describe("the precise cause the engine knows reaches the cell, in the user's language", () => {
  const { FirmaEngine } = require("../../src/engine/engine") as typeof import("../../src/engine/engine");
  const { MemoryStore } = require("../../src/engine/cache/store") as typeof import("../../src/engine/cache/store");
  const { toCellError } = require("../../src/shared/cells") as typeof import("../../src/shared/cells");
  const { read } = require("../support/engine-reads") as typeof import("../support/engine-reads");
  let sent = 0;
  const engine = new FirmaEngine({
    baseUrl: "http://127.0.0.1:9",
    apiKey: () => "demo-free-x",
    store: new MemoryStore(),
    plan: () => "free",
    fetch: async () => {
      sent++;
      throw new Error("no call should be made");
    },
  });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  test.each([
    [
      "a wrong control digit",
      () => engine.profileField("14399841", "denumire"),
      /CUI invalid \(„14399841”\): cifra de control/,
      /Invalid CUI \("14399841"\): the control digit/,
    ],
    [
      "too many digits",
      () => engine.profileField("12345678901", "denumire"),
      /CUI invalid \(„12345678901”\): un CUI are între 2 și 10 cifre/,
      /2 to 10 digits/,
    ],
    ["letters", () => engine.profileField("RO12AB", "denumire"), /doar cifre, opțional cu prefixul RO/, /digits only, RO prefix optional/],
    [
      "a year after the latest",
      () => engine.financialField(14399840, 2999, "cifra_afaceri"),
      /anul 2999 \(ultimul an cu date: \d{4}\)/,
      /No data for 2999 yet \(the latest year with data: \d{4}\)/,
    ],
    [
      "a year before the Free plan's history",
      () => engine.financialField(14399840, 2000, "cifra_afaceri"),
      /Anul 2000 nu e inclus în istoricul planului Free \(\d{4}–\d{4}\)/,
      /2000 is outside your Free plan's history/,
    ],
  ])("%s: named in Romanian and in English, at no cost", async (_what, run, roText, enText) => {
    await engine.ready();
    const e = await failure(read(run));
    expect(toCellError(e, "ro").message).toMatch(roText);
    expect(toCellError(e, "en").message).toMatch(enText);
    expect(sent).toBe(0);
  });
});
