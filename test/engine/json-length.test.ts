/**
 * The cache's size estimate (cache.ts entrySize) reads an answer's JSON length without making the JSON:
 * for the records FIRMA keeps (flat objects of text, numbers, booleans and nulls) it is the length exactly.
 */
import { jsonLength } from "../../src/engine/json-length";
import * as data from "../../sandbox/dataset";

test("a profile, a financial year, null and nested values: the length JSON.stringify gives", () => {
  const values: unknown[] = [null, true, false, 0, -7, 123456789012, 3.25, "", "Bucure\u0219ti", [1, "a", null], { a: { b: [2, 3] } }];
  for (const cui of data.sampleCuis(200, 70_000)) {
    values.push(data.company(cui));
    for (const f of data.financials(cui)) values.push(f);
  }
  for (const v of values) expect(jsonLength(v)).toBe(JSON.stringify(v).length);
});

test("undefined fields are left out, as JSON leaves them out", () => {
  const v = { a: 1, b: undefined, c: "x" };
  expect(jsonLength(v)).toBe(JSON.stringify(v).length);
});
