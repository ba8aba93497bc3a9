/** CUI parsing (src/api/cui.ts), table-driven: what a user may type or a cell may hold. */
import { controlDigit, isValidCui, parseCui, withControlDigit, type CuiFailure } from "../../src/api/cui";

describe("parseCui: accepted", () => {
  test.each<[string, unknown, number]>([
    ["a number", 14399840, 14399840],
    ["a digit string", "14399840", 14399840],
    ["with RO prefix", "RO14399840", 14399840],
    ["lower-case ro, spaces anywhere", " ro 1439 9840 ", 14399840],
    ["tabs and newlines around", "\tRO 14399840\n", 14399840],
    ["leading zeros", "0014399840", 14399840],
    ["another valid CUI", 18547290, 18547290],
    ["the shortest (2 digits)", 27, 27],
    ["10 digits", withControlDigit(123456789), withControlDigit(123456789)],
  ])("%s: %p → %i", (_name, input, cui) => {
    expect(parseCui(input)).toEqual({ ok: true, cui });
  });
});

describe("parseCui: refused", () => {
  test.each<[string, unknown, CuiFailure]>([
    ["wrong control digit", 14399841, "control"],
    ["wrong control digit, as text", "RO14399842", "control"],
    ["zero", 0, "format"],
    ["negative", -14399840, "format"],
    ["negative, as text", "-14399840", "format"],
    ["11 digits", 12345678901, "length"],
    ["11 digits, as text", "123456789012", "length"],
    ["one digit", 7, "length"],
    ["fractional", 1439984.5, "format"],
    ["fractional, as text", "14399840.5", "format"],
    ["NaN", NaN, "format"],
    ["Infinity", Infinity, "format"],
    ["text", "ALFA SRL", "format"],
    ["RO alone", "RO", "format"],
    ["zeros only", "000", "format"],
    ["boolean true", true, "format"],
    ["boolean false", false, "format"],
    ["an object", { cui: 14399840 }, "format"],
    ["empty string", "", "empty"],
    ["blank string", "   ", "empty"],
    ["null", null, "empty"],
    ["undefined", undefined, "empty"],
  ])("%s: %p → %s", (_name, input, reason) => {
    const r = parseCui(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe(reason);
  });
});

describe("control digit", () => {
  test.each([
    [1439984, 0],
    [1854729, 0],
    [2, 7],
  ])("controlDigit(%i) = %i", (base, digit) => {
    expect(controlDigit(base)).toBe(digit);
    expect(withControlDigit(base)).toBe(base * 10 + digit);
  });

  test("the integer arithmetic agrees with the definition for bases of 1 to 9 digits, the largest included", () => {
    // The definition, digit by digit from the text: weights 7 5 3 2 1 7 5 3 2 right-aligned, ×10, mod 11, 10 → 0.
    const byDefinition = (base: number) => {
      const digits = String(base).split("").map(Number);
      const weights = [7, 5, 3, 2, 1, 7, 5, 3, 2].slice(9 - digits.length);
      const c = (digits.reduce((s, d, i) => s + d * weights[i], 0) * 10) % 11;
      return c === 10 ? 0 : c;
    };
    const bases = [1, 9, 10, 99_999, 999_999_999, 123_456_789, 2_147_483_647 % 1_000_000_000];
    for (let i = 0; i < 20_000; i++) bases.push(1 + Math.floor(Math.random() * 999_999_999));
    for (const b of bases) expect(controlDigit(b)).toBe(byDefinition(b));
  });

  test("isValidCui agrees with the definition on both sides of 2^31 (CUIs of 10 digits take the general path)", () => {
    const valid = (n: number) => controlDigit(Math.floor(n / 10)) === n % 10;
    const ns = [10, 11, 2_147_483_639, 2_147_483_646, 2_147_483_647, 2_147_483_648, 2_147_483_649, 9_999_999_999];
    for (let i = 0; i < 20_000; i++) ns.push(10 + Math.floor(Math.random() * 9_999_999_990));
    for (const n of ns) expect(isValidCui(n)).toBe(valid(n));
    expect(ns.some((n) => n <= 2_147_483_647 && valid(n)) && ns.some((n) => n > 2_147_483_647 && valid(n))).toBe(true);
  });

  test.each([
    [14399840, true],
    [14399841, false],
    [9, false],
    [1e10, false],
    [14399840.5, false],
    [-14399840, false],
  ])("isValidCui(%p) = %p", (n, ok) => {
    expect(isValidCui(n)).toBe(ok);
  });
});
