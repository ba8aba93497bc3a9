/**
 * The cache's size estimate (cache.ts entrySize) reads an answer's JSON length without making the JSON:
 * for the records FIRMA keeps (flat objects of text, numbers, booleans and nulls) it is the length exactly.
 */
import { jsonBytes, jsonLength } from "../../src/engine/json-length";
import * as data from "../../sandbox/dataset";

test("a profile, a financial year, null and nested values: the length JSON.stringify gives", () => {
  const values: unknown[] = [null, true, false, 0, -7, 123456789012, 3.25, "", "Bucure\u0219ti", [1, "a", null], { a: { b: [2, 3] } }];
  for (const cui of data.sampleCuis(200, 70_000)) {
    values.push(data.company(cui));
    for (const f of data.financials(cui)) values.push(f);
  }
  for (const v of values) expect(jsonLength(v)).toBe(JSON.stringify(v).length);
});

test("whole numbers of every length, negative ones and the largest safe ones: their digits and sign", () => {
  const values: number[] = [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e15, 1e15 - 1, -1, -10];
  for (let p = 1; p <= 1e15; p *= 10) values.push(p, p - 1, p + 1, -p, 7 * p);
  for (const v of values) {
    expect(jsonLength(v)).toBe(JSON.stringify(v).length);
    expect(jsonBytes(v)).toBe(JSON.stringify(v).length);
  }
});

test("undefined fields are left out, as JSON leaves them out", () => {
  const v = { a: 1, b: undefined, c: "x" };
  expect(jsonLength(v)).toBe(JSON.stringify(v).length);
});

test("jsonBytes: exactly the UTF-8 bytes of JSON.stringify, escapes, diacritics, surrogates and left-out members included", () => {
  const values: unknown[] = [
    null,
    true,
    0,
    -0,
    -12.5,
    1e21,
    NaN,
    Infinity,
    "",
    'a "quoted" \\ back\\slash',
    "\n\t\r\b\f\u0001\u001f",
    "Bucure\u0219ti, Ia\u0219i, \u021Aar\u0103",
    "\u{1F600} and a lone \ud800 and \udc00",
    [1, undefined, () => 1, "x"],
    { a: undefined, b: [{ c: "\u00e2" }], "k\u0103y": 1 },
    [],
    {},
    new Date(0),
  ];
  for (const cui of data.sampleCuis(200, 70_000)) {
    values.push(data.company(cui));
    for (const f of data.financials(cui)) values.push(f);
  }
  for (const v of values) expect(jsonBytes(v)).toBe(Buffer.byteLength(JSON.stringify(v), "utf8"));
});
