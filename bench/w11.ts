/**
 * W11: names to CUIs. 1,000 names of sandbox companies, written messy ways, matched by the engine
 * (FirmaEngine.match, the code FIRMA.CUI and `firma match` run) against the sandbox under each of its
 * four search settings (searchMode word-prefix | substring × searchDiacritics folded | exact), each
 * with a fresh key and a fresh engine (nothing learned, nothing cached).
 *
 * The list (seeded): 800 companies whose name no other company of the search universe shares, of which
 * 60 get a planted look-alike (another company renamed, through the sandbox's `overrides`, to the same
 * name with another legal form: they then exist twice); 100 companies whose name is common (namesakes
 * in the registry); 100 names of no company. Messy forms, in turn: as the registry writes it, title case
 * with "S.R.L.", "SC … SRL", lower case with doubled spaces, without diacritics, "SC … SRL <county>"; a
 * county column for one row in three (code, or name without diacritics). One row in ten repeats an
 * earlier name written another way.
 *
 * Measured per setting: credits (the sandbox's count for the key) against the distinct normalized
 * names (the goal, plus what learning the service costs); wrong "sure" (a CUI that is not the row's
 * company, or "sure" where another company has the name, in the county the row names if it names one: goal 0); the share "sure" of the rows
 * whose company exists exactly once (goal ≥ 90 %); the time to the last row.
 */
import { prng } from "../test/fixtures/build-workbook";
import { FirmaEngine, normalizeName, parseCounty, type NameInput } from "../src/engine/engine";
import { MemoryStore } from "../src/engine/cache/store";
import { universe } from "../sandbox/universe";
import { findCounty } from "../sandbox/romania";
import type { Company } from "../sandbox/profile";
import { SANDBOX_DEFAULTS, type Svc } from "./hardening";

const ALONE = 800;
const PLANTED = 60;
const COMMON = 100;
const ABSENT = 100;
const say = (s: string) => process.stderr.write(s + "\n");

export const W11_MODES = [
  { searchMode: "word-prefix", searchDiacritics: "folded" },
  { searchMode: "word-prefix", searchDiacritics: "exact" },
  { searchMode: "substring", searchDiacritics: "folded" },
  { searchMode: "substring", searchDiacritics: "exact" },
] as const;

export interface W11Run {
  mode: string;
  rows: number;
  distinctNames: number;
  credits: number;
  sure: number;
  /** Rows whose company exists exactly once, and of those, matched sure (right CUI). */
  onceRows: number;
  onceSure: number;
  wrongSure: number;
  likely: number;
  ambiguous: number;
  notFound: number;
  notSearched: number;
  timeMs: number;
}

export interface W11Result {
  runs: W11Run[];
}

interface Row {
  input: NameInput;
  /** The row's company, or null for a name of no company. */
  cui: number | null;
}

const plain = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
const stem = (name: string) => name.replace(/ (SRL|SA|SNC|SCS|SCA)$/, "");
const title = (s: string) => s.toLowerCase().replace(/(^|\s)\S/g, (m) => m.toUpperCase());

function messy(c: Company, k: number): string {
  const s = stem(c.denumire);
  switch (k % 6) {
    case 0:
      return c.denumire;
    case 1:
      return `${title(s)} S.R.L.`;
    case 2:
      return `SC ${s} SRL`;
    case 3:
      return ` ${s.toLowerCase().replace(/ /g, "  ")} `;
    case 4:
      return plain(`${title(s)} srl`);
    default:
      return `SC ${title(s)} SRL ${c.judet}`;
  }
}

/** The list, the planted look-alikes (CUI → name), and which rows' companies exist exactly once. */
export function w11List(): {
  rows: Row[];
  overrides: Record<string, { denumire: string }>;
  once: Set<number>;
  namesakes: Map<string, Company[]>;
} {
  const r = prng(11);
  const companies = universe().companies;
  const count = new Map<string, number>();
  for (const c of companies) count.set(normalizeName(c.denumire), (count.get(normalizeName(c.denumire)) ?? 0) + 1);
  const alone: Company[] = [];
  const common: Company[] = [];
  for (let i = 0; alone.length < ALONE || common.length < COMMON; i = (i + 7919) % companies.length) {
    const c = companies[i];
    const n = count.get(normalizeName(c.denumire))!;
    if (n === 1 && alone.length < ALONE && !alone.includes(c)) alone.push(c);
    else if (n >= 3 && common.length < COMMON && !common.includes(c)) common.push(c);
  }
  const overrides: Record<string, { denumire: string }> = {};
  const taken = new Set([...alone, ...common].map((c) => c.cui));
  for (let k = 0; k < PLANTED; k++) {
    const victim = alone[k * 13];
    let twin: Company;
    do twin = companies[Math.floor(r() * companies.length)];
    while (taken.has(twin.cui));
    taken.add(twin.cui);
    overrides[String(twin.cui)] = { denumire: `${stem(victim.denumire)} ${victim.denumire.endsWith(" SA") ? "SRL" : "SA"}` };
  }
  const planted = new Set(Object.values(overrides).map((o) => normalizeName(o.denumire)));
  // Every company by its name's comparison form, the planted names in place of the twins' own.
  const namesakes = new Map<string, Company[]>();
  for (const c of companies) {
    const name = normalizeName(overrides[String(c.cui)]?.denumire ?? c.denumire);
    namesakes.set(name, [...(namesakes.get(name) ?? []), c]);
  }
  const once = new Set(alone.filter((c) => !planted.has(normalizeName(c.denumire))).map((c) => c.cui));
  const rows: Row[] = [];
  const counties = (c: Company, k: number) => (k % 3 !== 0 ? undefined : k % 2 ? plain(c.judet) : findCounty(c.judet)?.code);
  [...alone, ...common].forEach((c, k) => rows.push({ input: { name: messy(c, k), county: counties(c, k) }, cui: c.cui }));
  for (let k = 0; k < ABSENT; k++) rows.push({ input: { name: `${title(stem(alone[k].denumire))} Qz${k} Srl` }, cui: null });
  // One row in ten repeats an earlier company written another way.
  for (let k = 0; k < rows.length / 10; k++) {
    const c = alone[Math.floor(r() * alone.length)];
    rows.push({ input: { name: messy(c, k + 1) }, cui: c.cui });
  }
  // shuffled, seeded
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return { rows: rows.slice(0, 1000), overrides, once, namesakes };
}

export async function w11(svc: Svc): Promise<W11Result> {
  const { rows, overrides, once, namesakes } = w11List();
  const byCui = new Map(universe().companies.map((c) => [c.cui, c]));
  /** Whether a "sure" is right: the row's company, and no other of that name in the county the row names (its column, or after the legal form). */
  const rightSure = (row: Row, cui: number | undefined) => {
    const c = row.cui === null ? undefined : byCui.get(row.cui);
    if (!c || cui !== c.cui) return false;
    const name = String(row.input.name);
    const county = parseCounty(row.input.county)?.code ?? (name.endsWith(c.judet) ? parseCounty(c.judet)?.code : undefined);
    const others = (namesakes.get(normalizeName(c.denumire)) ?? []).filter((x) => x.cui !== c.cui);
    return others.every((x) => county !== undefined && parseCounty(x.judet)?.code !== county);
  };
  const runs: W11Run[] = [];
  for (const mode of W11_MODES) {
    await svc.configure({ ...SANDBOX_DEFAULTS, ...mode, overrides });
    const key = `demo-enterprise-w11-${Date.now()}-${mode.searchMode}-${mode.searchDiacritics}`;
    const engine = new FirmaEngine({ baseUrl: svc.url, apiKey: () => key, store: new MemoryStore() });
    await engine.ready(); // in Node, matching is loaded with the cache: the estimate is then exact
    const inputs = rows.map((x) => x.input);
    const distinctNames = engine.matchEstimate(inputs).distinct;
    const t0 = Date.now();
    const report = await engine.match(inputs, { maxCredits: 5000 });
    const timeMs = Date.now() - t0;
    const credits = (await svc.usage(key)).total;
    const run: W11Run = {
      mode: `${mode.searchMode}, ${mode.searchDiacritics}`,
      rows: rows.length,
      distinctNames,
      credits,
      sure: 0,
      onceRows: 0,
      onceSure: 0,
      wrongSure: 0,
      likely: 0,
      ambiguous: 0,
      notFound: 0,
      notSearched: 0,
      timeMs,
    };
    report.outcomes.forEach((o, i) => {
      const truth = rows[i].cui;
      const alone = truth !== null && once.has(truth);
      if (alone) run.onceRows++;
      if (o.confidence === "sure") {
        run.sure++;
        if (!rightSure(rows[i], o.cui)) run.wrongSure++;
        else if (alone) run.onceSure++;
      } else if (o.confidence === "likely") run.likely++;
      else if (o.confidence === "ambiguous") run.ambiguous++;
      else if (o.confidence === "not_found") run.notFound++;
      else run.notSearched++;
    });
    say(
      `  W11 ${run.mode}: ${credits} credits for ${distinctNames} names, ${run.onceSure}/${run.onceRows} sure, ${run.wrongSure} wrong, ${timeMs} ms`,
    );
    runs.push(run);
  }
  await svc.configure({ ...SANDBOX_DEFAULTS, searchMode: "word-prefix", searchDiacritics: "folded", overrides: {} });
  return { runs };
}

// ---- report -----------------------------------------------------------------------------------------

const n = (v: number) => v.toLocaleString("en");
const pct = (a: number, b: number) => `${b === 0 ? 0 : Math.round((1000 * a) / b) / 10} %`;

export function w11Targets(r: W11Result | undefined): { target: string; measured: string; met: boolean }[] {
  if (!r) return [];
  return r.runs.flatMap((x) => [
    { target: `W11 ${x.mode}: no wrong "sure"`, measured: `${x.wrongSure} wrong of ${n(x.sure)} sure`, met: x.wrongSure === 0 },
    {
      target: `W11 ${x.mode}: ≥ 90 % sure of the names that exist once`,
      measured: `${pct(x.onceSure, x.onceRows)} (${n(x.onceSure)} of ${n(x.onceRows)})`,
      met: x.onceSure >= 0.9 * x.onceRows,
    },
  ]);
}

export function w11Markdown(r: W11Result, latencyMs: number): string[] {
  const lines = ["## W11: names to CUIs", ""];
  lines.push(
    `1,000 rows of company names written messy ways (as the registry, title case with S.R.L., SC … SRL, lower case, without diacritics, ` +
      `with the county after the legal form; a county column in one row in three; one row in ten repeating an earlier company), ` +
      `matched by \`FirmaEngine.match\` against the sandbox at ${latencyMs} ms under each search setting, a fresh key and engine each ` +
      `(bench/w11.ts): ${ALONE} companies alone with their name (${PLANTED} of them given a planted look-alike), ${COMMON} with common names, ` +
      `${ABSENT} names of no company.`,
    "",
    '| Search | Credits | Distinct names | Sure (right CUI) of the names that exist once | Wrong "sure" | Likely / ambiguous / not found / not searched | Time to the last row |',
    "|---|---:|---:|---|---:|---|---:|",
  );
  for (const x of r.runs)
    lines.push(
      `| ${x.mode} | ${n(x.credits)} | ${n(x.distinctNames)} | ${pct(x.onceSure, x.onceRows)} (${n(x.onceSure)} of ${n(x.onceRows)}) | ${x.wrongSure} | ` +
        `${n(x.likely)} / ${n(x.ambiguous)} / ${n(x.notFound)} / ${n(x.notSearched)} | ${n(x.timeMs)} ms |`,
    );
  lines.push("");
  return lines;
}
