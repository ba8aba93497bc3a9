/** What is searched for a list of rows, for free (queries.ts): groups, query forms, the folding evidence, the estimate. */
import { estimateRows, groupRows, queryForms, readRow, showsFolding } from "../../../src/engine/match/queries";

test("different ways of writing one name share one search, with the diacritics one of them has", () => {
  const rows = ["Dedeman", "DEDEMAN S.R.L.", "SC Dedeman SRL Bacău", "Faget Construct", "Făget Construct srl", "", "SRL"].map((name) =>
    readRow({ name }),
  );
  const groups = groupRows(rows);
  expect(groups.map((g) => [g.name, g.query, g.rows])).toEqual([
    ["DEDEMAN", "DEDEMAN", [0, 1, 2]],
    ["FAGET CONSTRUCT", "FĂGET CONSTRUCT", [3, 4]],
  ]);
});

test("query forms: as written then folded; folded alone for a service known to fold; one form without diacritics", () => {
  expect(queryForms("FĂGET CONSTRUCT", undefined)).toEqual(["FĂGET CONSTRUCT", "FAGET CONSTRUCT"]);
  expect(queryForms("FĂGET CONSTRUCT", false)).toEqual(["FĂGET CONSTRUCT", "FAGET CONSTRUCT"]);
  expect(queryForms("FĂGET CONSTRUCT", true)).toEqual(["FAGET CONSTRUCT"]);
  expect(queryForms("DEDEMAN", undefined)).toEqual(["DEDEMAN"]);
});

test("an answer shows folding only when a name matches a query word folded and not as written", () => {
  expect(showsFolding("FAGET", [{ cui: 1, denumire: "FĂGET CONSTRUCT SRL" }])).toBe(true);
  expect(showsFolding("FĂGET", [{ cui: 1, denumire: "FAGET CONSTRUCT SRL" }])).toBe(true);
  expect(showsFolding("FĂGET", [{ cui: 1, denumire: "FĂGET CONSTRUCT SRL" }])).toBe(false);
  expect(showsFolding("ŞERBAN", [{ cui: 1, denumire: "ȘERBAN SRL" }])).toBe(false); // cedilla and comma are one letter
  expect(showsFolding("FAGET", [])).toBe(false);
});

test("the estimate: one credit per distinct name, the second form's at most, bad rows free", () => {
  const rows = [
    { name: "Dedeman" },
    { name: "DEDEMAN SRL", county: "BC" },
    { name: "Făget Construct" },
    { name: "Faget Construct SRL" },
    { name: "" },
    { name: 12 },
    { name: "X", county: "BC" },
    { name: "Dedeman", county: "Atlantida" },
  ].map(readRow);
  expect(estimateRows(rows, undefined, null)).toEqual({ min: 2, max: 3, distinct: 2, cached: 0, invalid: 4 });
  expect(estimateRows(rows, true, null)).toEqual({ min: 2, max: 2, distinct: 2, cached: 0, invalid: 4 });
  const cache = { fresh: (q: string) => (q === "DEDEMAN" ? [{ cui: 14399840, denumire: "DEDEMAN SRL" }] : undefined), settles: () => true };
  expect(estimateRows(rows, undefined, cache)).toEqual({ min: 1, max: 2, distinct: 2, cached: 1, invalid: 4 });
});
