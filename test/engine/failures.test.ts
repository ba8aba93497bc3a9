/** One failure vocabulary: every kind is known to the guard, shown with a message, and kept or not by rule. */
import { ApiError, NetworkError, NotFoundError } from "../../src/api/errors";
import { LocalInputError } from "../../src/engine/local-errors";
import { FAILURES, failureHas, kindOf, type FailureKind } from "../../src/engine/failures";
import { cellError, toCellError } from "../../src/shared/cells";

const KINDS = Object.keys(FAILURES) as FailureKind[];

describe("failure kinds", () => {
  test("kindOf reads the client's and the engine's errors, and nothing else", () => {
    expect(kindOf(new NetworkError())).toBe("network");
    expect(kindOf(new NotFoundError())).toBe("not_found");
    expect(kindOf(new LocalInputError("invalid_cui", "x"))).toBe("invalid_cui");
    expect(kindOf(new Error("plain"))).toBeNull();
    expect(kindOf({ kind: "made_up" })).toBeNull();
    expect(kindOf(null)).toBeNull();
    expect(kindOf(undefined)).toBeNull();
  });

  test.each(["ro", "en"] as const)("every kind shows an Excel error with a message in %s", (lang) => {
    for (const kind of KINDS) {
      const cell = cellError(kind, lang);
      expect(cell.error).toMatch(/^#(N\/A|VALUE!)$/);
      expect(cell.message).not.toMatch(/^cell\./);
      expect(cell.message.length).toBeGreaterThan(10);
      expect(cell.cause).toBe(kind);
    }
  });

  test("a stale answer stands in when the service is down, never for an answer about the company", () => {
    expect(failureHas(new NetworkError(), "staleStandsIn")).toBe(true);
    expect(failureHas(new ApiError("server", "x"), "staleStandsIn")).toBe(true);
    expect(failureHas(new NotFoundError(), "staleStandsIn")).toBe(false);
    expect(failureHas(new LocalInputError("invalid_cui", "x"), "staleStandsIn")).toBe(false);
  });

  test("whatever a stale answer stands in for, a refresh keeps the old value too", () => {
    for (const kind of KINDS) if (FAILURES[kind].staleStandsIn) expect([kind, FAILURES[kind].keepsOldValue]).toEqual([kind, true]);
  });

  test("bad input is local: it never costs a credit and never keeps an old value", () => {
    for (const kind of ["invalid_cui", "invalid_year", "invalid_slug", "invalid_limit", "invalid_field", "invalid_argument"] as const) {
      expect(FAILURES[kind]).toMatchObject({ local: true, keepsOldValue: false });
    }
  });

  test("a not-found year reads as a missing year in a history, a cause the cell keeps", () => {
    const cell = toCellError(new NotFoundError(), "ro", true);
    expect(cell.cause).toBe("not_found");
    expect(FAILURES.not_found.noFigures).toBe(true);
  });
});
