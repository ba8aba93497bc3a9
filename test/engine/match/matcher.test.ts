/**
 * Matching names against the real sandbox over loopback, under each of its search settings, counting
 * the credits the sandbox charged: messy ways of writing real companies' names, the stops, the failures.
 */
import { normalizeName } from "../../../src/engine/engine";
import type { MatchOutcome, NameInput } from "../../../src/engine/engine";
import { MemoryStore } from "../../../src/engine/cache/store";
import { sandboxPerFile } from "../../support/sandbox-per-file";
import { engineFor } from "../../support/engine";
import { universe } from "../../../sandbox/universe";
import type { Company } from "../../../sandbox/profile";

const sb = sandboxPerFile(() => ({ faults: {}, overrides: {}, searchMode: "word-prefix", searchDiacritics: "folded", latencyMs: 0 }));
let n = 0;
const setup = (o: Parameters<typeof engineFor>[2] = {}, plan = "enterprise") => engineFor(sb, `demo-${plan}-match${++n}`, o);

/** The universe's companies by comparison form. */
let byName: Map<string, Company[]>;
beforeAll(() => {
  byName = new Map();
  for (const c of universe().companies) {
    const k = normalizeName(c.denumire);
    byName.set(k, [...(byName.get(k) ?? []), c]);
  }
});

/** Companies alone with their name in the registry, of 3 words or more (few look-alikes), with or without diacritics. */
function unique(count: number, diacritics: boolean, skip = 0): Company[] {
  const out: Company[] = [];
  for (const [k, cs] of byName) {
    if (cs.length !== 1 || k.split(" ").length < 3) continue;
    if (/[ĂÂÎȘȚ]/.test(cs[0].denumire) !== diacritics) continue;
    if (skip-- > 0) continue;
    out.push(cs[0]);
    if (out.length === count) break;
  }
  return out;
}

const stripForm = (name: string) => name.replace(/ (SRL|SA|SNC|SCS|SCA)$/, "");
const plain = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
const title = (s: string) => s.toLowerCase().replace(/(^|\s)\S/g, (m) => m.toUpperCase());
/** Ways people write a name: as the registry, in title case with S.R.L., with SC, in lower case with extra spaces. */
const messy = (c: Company, k: number) =>
  [
    c.denumire,
    `${title(stripForm(c.denumire))} S.R.L.`,
    `SC ${stripForm(c.denumire)} SRL`,
    ` ${stripForm(c.denumire).toLowerCase().replace(/ /g, "  ")} `,
  ][k % 4];

const MODES = [
  ["word-prefix", "folded"],
  ["word-prefix", "exact"],
  ["substring", "folded"],
  ["substring", "exact"],
] as const;

describe.each(MODES)("search %s, diacritics %s", (mode, diacritics) => {
  beforeEach(() => Object.assign(sb.config, { searchMode: mode, searchDiacritics: diacritics }));

  test("names written messy ways, with their diacritics: each sure, the right CUI, one credit a distinct name", async () => {
    const { engine, charged } = setup();
    const companies = [...unique(12, true), ...unique(12, false)];
    const inputs = companies.flatMap((c, k) => [{ name: messy(c, k) }, { name: messy(c, k + 1), county: c.judet }]);
    const report = await engine.match(inputs);
    report.outcomes.forEach((o, i) => expect([i, o.confidence, o.cui]).toEqual([i, "sure", companies[i >> 1].cui]));
    expect(charged()).toBe(companies.length);
    expect(report.credits).toBe(charged());
    // Again: from the cache, free.
    const again = await engine.match(inputs);
    expect(again.outcomes.map((o) => o.cui)).toEqual(report.outcomes.map((o) => o.cui));
    expect(again.credits).toBe(0);
    expect(charged()).toBe(companies.length);
  });

  test("names typed without their diacritics: never a wrong sure; sure wherever the service folds", async () => {
    const { engine, charged } = setup();
    const companies = unique(10, true, 20);
    const report = await engine.match(companies.map((c) => ({ name: plain(c.denumire) })));
    for (const [i, o] of report.outcomes.entries()) {
      if (o.confidence === "sure") expect(o.cui).toBe(companies[i].cui);
      else expect(diacritics).toBe("exact");
      expect(o.confidence).not.toBe("not_searched");
    }
    // A name typed without diacritics has one query form: one credit each, whatever the service.
    expect(charged()).toBe(10);
  });

  test("absent names are not_found, at one credit each plus the folded form of those with diacritics (until learned)", async () => {
    const { engine, charged } = setup();
    const report = await engine.match([{ name: "Zzqx Inexistent Construct SRL" }, { name: "Fără Asemenea Firmă Qqz SRL" }]);
    expect(report.outcomes.map((o) => o.confidence)).toEqual(["not_found", "not_found"]);
    expect(charged()).toBe(3);
  });
});

describe("look-alikes and counties", () => {
  test("a planted namesake makes it ambiguous; the county then picks it, and disagreeing is never sure", async () => {
    const { engine, charged } = setup();
    const [c] = unique(1, false, 40);
    const twin = universe().companies.find((x) => x.judet !== c.judet && !x.denumire.startsWith(c.denumire.split(" ")[0]))!;
    sb.config.overrides = { [String(twin.cui)]: { denumire: c.denumire.replace(/ SRL$/, " S.A.") } };
    const other = ["Cluj", "Bacău"].find((j) => j !== c.judet && j !== twin.judet)!;
    const report = await engine.match([
      { name: c.denumire },
      { name: c.denumire, county: c.judet },
      { name: c.denumire, county: twin.judet },
      { name: c.denumire, county: other },
    ]);
    expect(report.outcomes.map((o) => [o.confidence, o.cui])).toEqual([
      ["ambiguous", undefined],
      ["sure", c.cui],
      ["sure", twin.cui],
      ["not_found", undefined],
    ]);
    expect(report.outcomes[0].candidates.map((x) => x.cui).sort()).toEqual([c.cui, twin.cui].sort());
    expect(charged()).toBe(1);
  });

  test("a name the service lists 100 times or more is never sure: ambiguous, incomplete, one credit", async () => {
    const { engine, charged } = setup();
    const report = await engine.match([{ name: "Agro" }]);
    expect(report.outcomes[0]).toMatchObject({ confidence: "ambiguous", incomplete: true });
    expect(charged()).toBe(1);
  });

  test("a partial name with one company holding its words is likely, with it, never sure", async () => {
    const { engine } = setup();
    const c = universe().companies[4321];
    sb.config.overrides = { [String(c.cui)]: { denumire: "ZZQ UNIC PARTIAL CONSTRUCT SRL" } };
    const report = await engine.match([{ name: "Zzq Unic Partial" }]);
    expect(report.outcomes[0]).toMatchObject({ confidence: "likely", cui: c.cui, officialName: "ZZQ UNIC PARTIAL CONSTRUCT SRL" });
  });
});

describe("learning the service's search, once per address", () => {
  test("a folding service shows it in the first answers: names with diacritics then cost one search, not two", async () => {
    const store = new MemoryStore();
    const { engine, charged } = setup({ store });
    const [a] = unique(1, true, 70);
    await engine.match([{ name: plain(a.denumire) }]); // found through folding: learned
    expect(JSON.parse((await store.getItem("firma.caps.v2"))!)).toEqual({ [sb.url]: expect.objectContaining({ searchFolds: true }) });
    const before = charged();
    expect(engine.matchEstimate([{ name: "Fără Asemenea Qqy" }])).toMatchObject({ min: 1, max: 1 });
    await engine.match([{ name: "Fără Asemenea Qqy" }]);
    expect(charged() - before).toBe(1);
  });

  test("a service that does not fold: the folded form finds what the written one missed, and that is learned", async () => {
    sb.config.searchDiacritics = "exact";
    const store = new MemoryStore();
    const { engine, charged } = setup({ store });
    const [c] = unique(1, false, 80);
    const typed = `${c.denumire.replace(/A/, "Ă")}`; // the user put a diacritic the registry has not
    expect(engine.matchEstimate([{ name: typed }])).toMatchObject({ min: 1, max: 2, distinct: 1 });
    const report = await engine.match([{ name: typed }]);
    expect(report.outcomes[0]).toMatchObject({ confidence: "sure", cui: c.cui });
    expect(charged()).toBe(2);
    expect(JSON.parse((await store.getItem("firma.caps.v2"))!)).toEqual({ [sb.url]: expect.objectContaining({ searchFolds: false }) });
  });
});

describe("a service that does not fold diacritics: a namesake in the other spelling is never missed", () => {
  /** An engine that knows, from an earlier run, that this sandbox's search does not fold diacritics. */
  async function knowingExact() {
    sb.config.searchDiacritics = "exact";
    const store = new MemoryStore();
    await store.setItem("firma.caps.v2", JSON.stringify({ [sb.url]: { searchFolds: false } }));
    return setup({ store });
  }

  test("typed with diacritics: both spellings are asked, and a twin without them makes it ambiguous", async () => {
    const { engine, charged } = await knowingExact();
    const [c] = unique(1, true, 30);
    const twin = universe().companies.find((x) => x.cui !== c.cui && x.judet !== c.judet)!;
    sb.config.overrides = { [String(twin.cui)]: { denumire: plain(c.denumire) } };
    expect(engine.matchEstimate([{ name: c.denumire }])).toMatchObject({ min: 1, max: 2 });
    const report = await engine.match([{ name: c.denumire }]);
    expect(report.outcomes[0].confidence).toBe("ambiguous");
    expect(report.outcomes[0].candidates.map((x) => x.cui).sort()).toEqual([c.cui, twin.cui].sort());
    expect(charged()).toBe(2);
  });

  test("typed with diacritics and no twin: sure, after both spellings (two credits)", async () => {
    const { engine, charged } = await knowingExact();
    const [c] = unique(1, true, 31);
    const report = await engine.match([{ name: c.denumire }]);
    expect(report.outcomes[0]).toMatchObject({ confidence: "sure", cui: c.cui });
    expect(charged()).toBe(2);
  });

  test("typed without diacritics: the one company found is likely, never sure (a spelling with them cannot be asked)", async () => {
    const { engine, charged } = await knowingExact();
    const [c] = unique(1, false, 32);
    const report = await engine.match([{ name: c.denumire }]);
    expect(report.outcomes[0]).toMatchObject({ confidence: "likely", cui: c.cui });
    expect(charged()).toBe(1);
  });
});

describe("bad input costs nothing", () => {
  test("empty cells, numbers, one letter, a legal form alone, an unknown county; equal names searched once", async () => {
    const { engine, charged } = setup();
    const [c] = unique(1, false, 90);
    const inputs: NameInput[] = [
      { name: "" },
      { name: 14399840 },
      { name: "A" },
      { name: "S.R.L." },
      { name: c.denumire, county: "Atlantida" },
      { name: c.denumire },
      { name: `SC ${c.denumire.toLowerCase()}` },
    ];
    expect(engine.matchEstimate(inputs)).toEqual({ min: 1, max: 1, distinct: 1, cached: 0, invalid: 5 });
    const report = await engine.match(inputs);
    expect(report.outcomes.map((o) => o.problem?.kind ?? o.confidence)).toEqual([
      "empty",
      "not_text",
      "too_short",
      "only_legal_form",
      "unknown_county",
      "sure",
      "sure",
    ]);
    expect(report.outcomes[4].problem).toEqual({ kind: "unknown_county", detail: "Atlantida" });
    expect(report.outcomes.slice(0, 5).every((o) => o.confidence === "not_searched")).toBe(true);
    expect(charged()).toBe(1);
  });
});

describe("stops: not_searched with the stop, never not_found", () => {
  const names = (k: number, skip: number) => unique(k, false, skip).map((c) => ({ name: c.denumire }));
  const stops = (os: MatchOutcome[]) => os.map((o) => o.stoppedBy ?? o.confidence);

  test("a budget: the names past it are not searched, the budget is never exceeded", async () => {
    const { engine, charged } = setup();
    const report = await engine.match(names(10, 100), { maxCredits: 3 });
    expect(charged()).toBe(3);
    expect(report.credits).toBe(3);
    expect(stops(report.outcomes).filter((s) => s === "sure")).toHaveLength(3);
    expect(stops(report.outcomes).filter((s) => s === "budget")).toHaveLength(7);
  });

  test("a Free key's 10 a day: 10 searched, the rest not searched (credits spent)", async () => {
    const { engine, charged } = setup({}, "free");
    const report = await engine.match(names(14, 120));
    expect(charged()).toBe(10);
    expect(stops(report.outcomes).filter((s) => s === "sure")).toHaveLength(10);
    expect(stops(report.outcomes).filter((s) => s === "quota")).toHaveLength(4);
  });

  test("credits already spent: nothing is searched", async () => {
    sb.config.faults = { rateLimitAfter: 0 };
    const { engine, charged } = setup();
    const report = await engine.match(names(5, 140));
    expect(stops(report.outcomes)).toEqual(Array(5).fill("quota"));
    expect(charged()).toBe(0);
  });

  test("the credit guard holds a run without a budget that would cost more than its threshold", async () => {
    const { engine, charged } = setup({ guardThreshold: 3 });
    const report = await engine.match(names(5, 150));
    expect(stops(report.outcomes)).toEqual(Array(5).fill("guard"));
    expect(charged()).toBe(0);
    // A confirmed run (with its budget) does not ask the guard.
    const confirmed = await engine.match(names(5, 150), { maxCredits: 5 });
    expect(stops(confirmed.outcomes)).toEqual(Array(5).fill("sure"));
  });

  test("the service down or answering garbage: not_searched, stopped by the service, after 3 failures", async () => {
    for (const faults of [{ errorRate: 1 }, { malformedRate: 1 }]) {
      sb.config.faults = faults;
      const { engine } = setup({ retryDelayMs: 1 });
      const report = await engine.match(names(8, 160));
      expect(stops(report.outcomes)).toEqual(Array(8).fill("service"));
      expect(report.outcomes[0].cause).toBeInstanceOf(Error);
      // the run stopped asking: 3 searches failed (each with its retry)
      expect(sb.requests.filter((r) => r.key === `demo-enterprise-match${n}`).length).toBeLessThanOrEqual(2 * 3 + 6 * 2);
    }
  });

  test("a cancelled run: not_searched, aborted", async () => {
    sb.config.latencyMs = 200;
    const { engine } = setup();
    const ac = new AbortController();
    const running = engine.match(names(4, 180), { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const report = await running;
    expect(stops(report.outcomes)).toEqual(Array(4).fill("aborted"));
  });
});

test("50,000 names: the estimate, without a call", () => {
  const { engine, charged } = setup();
  const inputs = Array.from({ length: 50_000 }, (_, i) => ({ name: `Firma ${i} Distinctă SRL`, county: i % 3 ? "BC" : "" }));
  const t = Date.now();
  const e = engine.matchEstimate(inputs);
  expect(Date.now() - t).toBeLessThan(5000);
  expect(e).toEqual({ min: 50_000, max: 100_000, distinct: 50_000, cached: 0, invalid: 0 });
  expect(charged()).toBe(0);
});
