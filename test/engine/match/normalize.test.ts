/** Names as FIRMA compares them, and what a typed name asks the search for (normalize.ts, queries.ts readRow). */
import { normalizeName, parseName } from "../../../src/engine/match/normalize";
import { readRow } from "../../../src/engine/match/queries";

describe("the comparison form", () => {
  test.each([
    ["Dedeman", "DEDEMAN"],
    ["DEDEMAN S.R.L.", "DEDEMAN"],
    ["SC Dedeman SRL", "DEDEMAN"],
    ["S.C. DEDEMAN S.R.L.", "DEDEMAN"],
    ["s.c. dedeman s.r.l", "DEDEMAN"],
    ["Făget Construct srl", "FAGET CONSTRUCT"],
    ["FAGET   CONSTRUCT  SRL", "FAGET CONSTRUCT"],
    ["ŞERBAN & FIII SRL", "SERBAN FIII"], // cedilla
    ["ȘERBAN & FIII SRL", "SERBAN FIII"], // comma below
    ["Serban&Fiii", "SERBAN FIII"],
    ["ȚARA BÂRSEI TRANS SA", "TARA BARSEI TRANS"],
    ["ţara bârsei trans s.a.", "TARA BARSEI TRANS"],
    ["ALFA IMPEX SRL-D", "ALFA IMPEX"],
    ["Alfa Impex S.R.L.-D.", "ALFA IMPEX"],
    ["POPESCU ION PFA", "POPESCU ION"],
    ["Popescu Ion Persoană Fizică Autorizată", "POPESCU ION"],
    ["MEGA SNC", "MEGA"],
    ["A.B.C. TRADING SRL", "ABC TRADING"],
    ["KOVÁCS FAMILY SCS", "KOVACS FAMILY"],
    ["AGRO 2005 SRL", "AGRO 2005"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  test("a legal form alone leaves nothing; SC inside a name stays", () => {
    expect(normalizeName("SRL")).toBe("");
    expect(normalizeName("S.R.L.")).toBe("");
    expect(normalizeName("SC SRL")).toBe("");
    expect(normalizeName("DISC SC SRL")).toBe("DISC SC");
  });

  test("an official name is never cut in the middle: a legal form inside it stays", () => {
    expect(normalizeName("TRANS SA SERVICE SRL")).toBe("TRANS SA SERVICE");
  });
});

describe("a typed name", () => {
  test("the query keeps the user's spelling from the first word to the last, without SC and the legal form", () => {
    expect(parseName("SC Făget Construct srl")).toMatchObject({ name: "FAGET CONSTRUCT", query: "FĂGET CONSTRUCT", tail: "" });
    expect(parseName("  popescu & fiii  S.R.L. ")).toMatchObject({ name: "POPESCU FIII", query: "POPESCU & FIII" });
    expect(parseName("Şerban SRL")?.query).toBe("ȘERBAN"); // cedilla typed, comma-below sent
  });

  test("words after a legal form in the middle are set aside, and kept as other forms the text may mean", () => {
    const p = parseName("SC Dedeman SRL Bacău");
    expect(p).toMatchObject({ name: "DEDEMAN", query: "DEDEMAN", tail: "BACĂU" });
    expect(p?.alternatives.sort()).toEqual(["DEDEMAN BACAU", "DEDEMAN SRL BACAU"]);
  });

  test("bad input is caught for free, each with its kind", () => {
    expect(readRow({ name: "" })).toEqual({ problem: { kind: "empty" } });
    expect(readRow({ name: "   " })).toEqual({ problem: { kind: "empty" } });
    expect(readRow({ name: null })).toEqual({ problem: { kind: "empty" } });
    expect(readRow({ name: 14399840 })).toMatchObject({ problem: { kind: "not_text" } });
    expect(readRow({ name: "RO 14399840" })).toMatchObject({ problem: { kind: "not_text" } });
    expect(readRow({ name: true })).toMatchObject({ problem: { kind: "not_text" } });
    expect(readRow({ name: "A" })).toMatchObject({ problem: { kind: "too_short" } });
    expect(readRow({ name: "X S.R.L." })).toMatchObject({ problem: { kind: "too_short" } });
    expect(readRow({ name: "--" })).toMatchObject({ problem: { kind: "too_short" } });
    expect(readRow({ name: "SRL" })).toMatchObject({ problem: { kind: "only_legal_form" } });
    expect(readRow({ name: "S.C. S.R.L." })).toMatchObject({ problem: { kind: "only_legal_form" } });
    expect(readRow({ name: "Dedeman", county: "Atlantida" })).toEqual({ problem: { kind: "unknown_county", detail: "Atlantida" } });
  });

  test("a county in the row, or after the legal form, is the county asked for", () => {
    expect(readRow({ name: "Dedeman", county: "bc" })).toMatchObject({ wanted: { name: "DEDEMAN", county: "BC" } });
    expect(readRow({ name: "SC Dedeman SRL Bacău" })).toMatchObject({ wanted: { name: "DEDEMAN", county: "BC" } });
    expect(readRow({ name: "SC Dedeman SRL Onești" })).toMatchObject({ wanted: { name: "DEDEMAN", county: undefined } });
    expect(readRow({ name: "Dedeman", county: "  " })).toMatchObject({ wanted: { county: undefined } });
  });
});
