/** A name's confidence from the companies a search listed (classify.ts): a wrong "sure" must never happen. */
import { classify, type Wanted } from "../../../src/engine/match/classify";
import type { MatchCandidate } from "../../../src/engine/match/types";

const c = (cui: number, denumire: string, judet = "Bacău", stare = "ACTIVA"): MatchCandidate => ({ cui, denumire, judet, stare });
const DEDEMAN = c(14399840, "DEDEMAN SRL");
const complete = (...items: MatchCandidate[]) => ({ items, complete: true });
const want = (name: string, county?: string, alternatives: string[] = []): Wanted => ({ name, county, alternatives });

test("one company of that name in a complete list: sure, with its CUI and official name", () => {
  const out = classify(want("DEDEMAN"), complete(DEDEMAN, c(22, "DEDEMAN AUTO SRL"), c(33, "ANDEDEMAN SRL")));
  expect(out).toMatchObject({ confidence: "sure", cui: 14399840, officialName: "DEDEMAN SRL" });
});

test("a list not read to its end is never sure, even with one namesake among what was read", () => {
  const out = classify(want("DEDEMAN"), { items: [DEDEMAN, c(22, "DEDEMAN AUTO SRL")], complete: false });
  expect(out.confidence).toBe("ambiguous");
  expect(out.incomplete).toBe(true);
  expect(out.cui).toBeUndefined();
});

test("two namesakes, one struck off: ambiguous, both shown", () => {
  const out = classify(want("DEDEMAN"), complete(DEDEMAN, c(44, "DEDEMAN S.A.", "Bacău", "RADIATA")));
  expect(out.confidence).toBe("ambiguous");
  expect(out.candidates.map((x) => x.cui)).toEqual([14399840, 44]);
});

test("a namesake in another county and no county given: ambiguous", () => {
  const out = classify(want("DEDEMAN"), complete(DEDEMAN, c(55, "DEDEMAN SRL", "Cluj")));
  expect(out.confidence).toBe("ambiguous");
});

test("a county given picks the namesake in it: sure", () => {
  const out = classify(want("DEDEMAN", "CJ"), complete(DEDEMAN, c(55, "DEDEMAN SRL", "Cluj")));
  expect(out).toMatchObject({ confidence: "sure", cui: 55 });
});

test("the county disagrees: never sure, never likely; the namesake elsewhere is reported", () => {
  const out = classify(want("DEDEMAN", "CJ"), complete(DEDEMAN));
  expect(out.confidence).toBe("not_found");
  expect(out.cui).toBeUndefined();
  expect(out.candidates.map((x) => x.cui)).toEqual([14399840]);
});

test("a county given and the service does not say the candidate's county: at most likely", () => {
  const out = classify(want("DEDEMAN", "BC"), complete({ cui: 14399840, denumire: "DEDEMAN SRL" }));
  expect(out).toMatchObject({ confidence: "likely", cui: 14399840 });
});

test("no namesake, one company whose words hold the name's: likely (never filled), with it", () => {
  const out = classify(want("FAGET"), complete(c(66, "FĂGET CONSTRUCT SRL"), c(77, "FAGETEL SRL")));
  expect(out).toMatchObject({ confidence: "likely", cui: 66, officialName: "FĂGET CONSTRUCT SRL" });
  expect(out.candidates).toHaveLength(1);
});

test("the reverse: the name holds every word of one company's", () => {
  expect(classify(want("FAGET CONSTRUCT NORD"), complete(c(66, "FĂGET CONSTRUCT SRL"))).confidence).toBe("likely");
});

test("several partial fits: ambiguous with their count; none: not found", () => {
  const two = classify(want("FAGET"), complete(c(66, "FAGET CONSTRUCT SRL"), c(67, "FAGET IMPEX SRL")));
  expect(two).toMatchObject({ confidence: "ambiguous" });
  expect(two.candidates).toHaveLength(2);
  expect(classify(want("FAGET"), complete(c(77, "FAGETEL SRL"))).confidence).toBe("not_found");
  expect(classify(want("FAGET"), complete()).confidence).toBe("not_found");
});

test("a candidate in another county is no partial fit", () => {
  expect(classify(want("FAGET", "BC"), complete(c(66, "FAGET CONSTRUCT SRL", "Cluj"))).confidence).toBe("not_found");
});

test("another form the text may mean counts as the same name: two such companies are ambiguous", () => {
  const out = classify(want("DEDEMAN", undefined, ["DEDEMAN BACAU"]), complete(DEDEMAN, c(88, "DEDEMAN BACĂU SRL")));
  expect(out.confidence).toBe("ambiguous");
});

test("the same company listed twice (a page that moved) counts once", () => {
  expect(classify(want("DEDEMAN"), complete(DEDEMAN, DEDEMAN)).confidence).toBe("sure");
});

test("many fits are shown 20 at most", () => {
  const many = Array.from({ length: 30 }, (_, i) => c(100 + i, "DEDEMAN SRL"));
  const out = classify(want("DEDEMAN"), complete(...many));
  expect(out.confidence).toBe("ambiguous");
  expect(out.candidates).toHaveLength(20);
});
