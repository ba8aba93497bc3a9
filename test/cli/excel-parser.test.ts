/**
 * fast-formula-parser computing as Excel does on ExcelParser's own instances: the criteria of
 * COUNTIF, SUMIF and AVERAGEIF and the operators compare text without regard to case and a blank
 * as "", & writes numbers as Excel does; the library itself, and any other parser, stay as shipped.
 */
import FormulaParser from "fast-formula-parser";
import { Infix } from "fast-formula-parser/formulas/operators";
import { ExcelParser } from "../../src/cli/excel-parser";
const grid: Record<string, unknown> = { "1,1": "A", "2,1": "b", "3,1": null, "1,2": 1, "2,2": 2, "3,2": 4 };
const cfg = {
  onCell: (r: { row: number; col: number }) => grid[`${r.row},${r.col}`] ?? null,
  onRange: (r: { from: { row: number; col: number }; to: { row: number; col: number } }) => {
    const out: unknown[][] = [];
    for (let i = r.from.row; i <= r.to.row; i++) {
      const l: unknown[] = [];
      for (let j = r.from.col; j <= r.to.col; j++) l.push(grid[`${i},${j}`] ?? null);
      out.push(l);
    }
    return out;
  },
};
test("Excel's comparisons and text on an ExcelParser; the library untouched", () => {
  const p = new ExcelParser(cfg);
  const at = { sheet: "S", row: 9, col: 9 };
  expect(p.parse('COUNTIF(A1:A3,"a")', at)).toBe(1);
  expect(p.parse('COUNTIF(A1:A3,"")', at)).toBe(1);
  expect(p.parse('SUMIF(A1:A3,"B",B1:B3)', at)).toBe(2);
  expect(p.parse('AVERAGEIF(A1:A3,"<>a",B1:B3)', at)).toBe(3);
  expect(p.parse('SUMIF(A1:A3,"b*",B1:B3)', at)).toBe(2);
  expect(p.parse('A1="a"', at)).toBe(true);
  expect(p.parse('A3=""', at)).toBe(true);
  expect(p.parse('1/3&""', at)).toBe("0.333333333333333");
  expect(p.parse('1/0&""', at)).toMatchObject({ error: "#DIV/0!" });
  const plain = new FormulaParser(cfg);
  expect(plain.parse('A1="a"', at)).toBe(false);
  expect(plain.parse('COUNTIF(A1:A3,"a")', at)).toBe(0);
  expect(Infix.compareOp("A", "=", "a", false, false)).toBe(false);
});
