/**
 * The cache's size estimate (lru-order.ts entrySize) and the store's rows read an answer's JSON bytes
 * without making the JSON: exactly the UTF-8 bytes of JSON.stringify.
 */
import { jsonBytes } from "../../src/engine/cache/json-length";
import * as data from "../../sandbox/dataset";

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

test("a profile, a financial year, null and nested values: the UTF-8 bytes of what JSON.stringify gives", () => {
  const values: unknown[] = [null, true, false, 0, -7, 123456789012, 3.25, "", "Bucure\u0219ti", [1, "a", null], { a: { b: [2, 3] } }];
  for (const cui of data.sampleCuis(200, 70_000)) {
    values.push(data.company(cui));
    for (const f of data.financials(cui)) values.push(f);
  }
  for (const v of values) expect(jsonBytes(v)).toBe(bytesOf(v));
});

test("whole numbers of every length, negative ones and the largest safe ones: their digits and sign", () => {
  const values: number[] = [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e15, 1e15 - 1, -1, -10];
  for (let p = 1; p <= 1e15; p *= 10) values.push(p, p - 1, p + 1, -p, 7 * p);
  for (const v of values) {
    expect(jsonBytes(v)).toBe(JSON.stringify(v).length);
  }
});

test("undefined fields are left out, as JSON leaves them out", () => {
  const v = { a: 1, b: undefined, c: "x" };
  expect(jsonBytes(v)).toBe(bytesOf(v));
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
