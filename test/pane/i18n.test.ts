/**
 * The pane's one table of texts: every text in Romanian and English with the same placeholders,
 * every key the page uses exists, every key in the table is used, and numbers and counts are
 * written the way each language writes them.
 */
import * as fs from "fs";
import * as path from "path";
import { STRINGS, count, formatNumber, t } from "../../src/taskpane/i18n";

const SRC = path.resolve(__dirname, "../../src/taskpane");
const html = fs.readFileSync(path.join(SRC, "taskpane.html"), "utf8");
const code = fs
  .readdirSync(SRC)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => fs.readFileSync(path.join(SRC, f), "utf8"))
  .map((text) => text.replace(/export const STRINGS = \{[\s\S]*?\} as const satisfies/, "")) // the table itself does not count
  .join("\n");
const entries = Object.entries(STRINGS) as [string, readonly [string, string]][];

describe("the text table", () => {
  test("every text has a Romanian and an English version", () => {
    for (const [key, [ro, en]] of entries) {
      expect({ key, ro: ro.trim() !== "", en: en.trim() !== "" }).toEqual({ key, ro: true, en: true });
    }
  });

  test("both versions use the same placeholders", () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, [ro, en]] of entries) expect({ key, ro: names(ro) }).toEqual({ key, ro: names(en) });
  });

  test("every key the page refers to is in the table", () => {
    const used = [...html.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((k) => !(k in STRINGS))).toEqual([]);
  });

  test("every key in the table is used by the page or the pane's code", () => {
    // keys the code builds from a name: plan.<plan>, fn.<FUNCTION>, usage.warn<level>.<period>, noun.<noun>, lang.<lang>
    const dynamic = /^(plan|fn|noun|lang)\.|^usage\.warn(80|100)\.(day|month)$/;
    const unused = Object.keys(STRINGS).filter((k) => !dynamic.test(k) && !html.includes(`"${k}"`) && !code.includes(`"${k}"`));
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
    expect(count(1, "formula", "ro")).toBe("1 formulă FIRMA");
  });

  test("an unlimited amount is said in words", () => {
    expect(formatNumber(Infinity, "ro")).toBe("nelimitat");
    expect(formatNumber(Infinity, "en")).toBe("unlimited");
  });
});
