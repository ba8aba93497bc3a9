/**
 * Rankings (O11): for every dataset year, category and scope (national, each county, each
 * locality) a ranking of the search universe's companies that filed that year, by value, highest
 * first. Slugs: top-{categorie}-{an}-{scop}[-{county code | locality slug}]. Computed per slug on
 * first use and kept in a small cache.
 */
import { FIRST_YEAR, hasRecord, yearOf } from "./finance";
import { COUNTIES, LOCALITIES } from "./romania";
import { universe } from "./universe";

const { isNaN } = Number; // a module constant: fast under Jest (see random.ts)

type Field = "cifra_afaceri" | "profit_net" | "numar_angajati" | "active_totale";

const CATEGORIES: Record<string, { field: Field; label: string }> = {
  "cifra-afaceri": { field: "cifra_afaceri", label: "cifra de afaceri" },
  "profit-net": { field: "profit_net", label: "profit net" },
  angajati: { field: "numar_angajati", label: "număr de angajați" },
  active: { field: "active_totale", label: "active totale" },
};
const FIELDS = Object.values(CATEGORIES).map((c) => c.field);
const SCOPES = ["national", "judet", "localitate"] as const;
type Scope = (typeof SCOPES)[number];

export interface RankingSummary {
  slug: string;
  titlu: string;
  an: number;
  categorie: string;
  scop: Scope;
  judet?: string;
  localitate?: string;
  numar_firme: number;
}

export interface RankingRow {
  pozitie: number;
  cui: number;
  denumire: string;
  valoare: number;
  valoare_anterioara: number | null;
  /** Change against last year in percent, one decimal; null when last year's value is missing or zero. */
  variatie: number | null;
}

interface RankingId {
  categorie: string;
  an: number;
  scop: Scope;
  /** Index into COUNTIES (scop "judet") or LOCALITIES (scop "localitate"). */
  area: number;
}

/** A map that forgets its oldest entry beyond a size. */
class Cache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string, make: () => V): V {
    let value = this.map.get(key);
    if (value === undefined) {
      value = make();
      this.map.set(key, value);
      if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    }
    return value;
  }
}

function slugOf(id: RankingId): string {
  const area =
    id.scop === "judet" ? `-${COUNTIES[id.area].code.toLowerCase()}` : id.scop === "localitate" ? `-${LOCALITIES[id.area].slug}` : "";
  return `top-${id.categorie}-${id.an}-${id.scop}${area}`;
}

function parseSlug(slug: string, latest: number): RankingId | null {
  const m = /^top-([a-z-]+?)-(\d{4})-(national|judet|localitate)(?:-([a-z0-9-]+))?$/.exec(slug);
  if (!m || !CATEGORIES[m[1]]) return null;
  const an = Number(m[2]);
  if (an < FIRST_YEAR || an > latest) return null;
  const scop = m[3] as Scope;
  const area =
    scop === "national"
      ? m[4] === undefined
        ? 0
        : -1
      : scop === "judet"
        ? COUNTIES.findIndex((c) => c.code.toLowerCase() === m[4])
        : LOCALITIES.findIndex((l) => l.slug === m[4]);
  return area < 0 ? null : { categorie: m[1], an, scop, area };
}

/** How many universe companies filed in a year: nationally, per county, per locality. */
interface YearCounts {
  national: number;
  county: Int32Array;
  locality: Int32Array;
}
const counts = new Cache<YearCounts>(64);

function yearCounts(an: number, latest: number): YearCounts {
  return counts.get(`${an}/${latest}`, () => {
    const u = universe();
    const c: YearCounts = {
      national: 0,
      county: new Int32Array(COUNTIES.length),
      locality: new Int32Array(LOCALITIES.length),
    };
    u.filings.forEach((f, doc) => {
      if (!hasRecord(f, an, latest)) return;
      c.national++;
      c.county[u.county[doc]]++;
      c.locality[u.locality[doc]]++;
    });
    return c;
  });
}

function summaryOf(id: RankingId, latest: number): RankingSummary {
  const c = yearCounts(id.an, latest);
  const base = { slug: slugOf(id), an: id.an, categorie: id.categorie, scop: id.scop };
  const title = `Top ${CATEGORIES[id.categorie].label} ${id.an}`;
  if (id.scop === "national") {
    return { ...base, titlu: `${title} – România`, numar_firme: c.national };
  }
  if (id.scop === "judet") {
    const county = COUNTIES[id.area];
    const where = county.code === "B" ? "municipiul București" : `județul ${county.name}`;
    return {
      ...base,
      titlu: `${title} – ${where}`,
      judet: county.name,
      numar_firme: c.county[id.area],
    };
  }
  const locality = LOCALITIES[id.area];
  const county = COUNTIES[locality.county];
  return {
    ...base,
    titlu: `${title} – ${locality.name}, ${county.name}`,
    judet: county.name,
    localitate: locality.name,
    numar_firme: c.locality[id.area],
  };
}

export interface RankingFilter {
  an?: number;
  categorie?: string;
  scop?: string;
}

/** Rankings with at least one company, latest year first. */
export function listRankings(filter: RankingFilter, latest: number): RankingSummary[] {
  const out: RankingSummary[] = [];
  for (let an = latest; an >= FIRST_YEAR; an--) {
    if (filter.an !== undefined && filter.an !== an) continue;
    for (const categorie of Object.keys(CATEGORIES)) {
      if (filter.categorie !== undefined && filter.categorie !== categorie) continue;
      for (const scop of SCOPES) {
        if (filter.scop !== undefined && filter.scop !== scop) continue;
        const areas = scop === "national" ? 1 : scop === "judet" ? COUNTIES.length : LOCALITIES.length;
        for (let area = 0; area < areas; area++) {
          const summary = summaryOf({ categorie, an, scop, area }, latest);
          if (summary.numar_firme > 0) out.push(summary);
        }
      }
    }
  }
  return out;
}

/** Each field's value for every universe company in a year (NaN where it did not file). */
type Columns = Record<Field, Float64Array>;
const columns = new Cache<Columns>(6);

function yearColumns(an: number, latest: number): Columns {
  return columns.get(`${an}/${latest}`, () => {
    const { bases, companies } = universe();
    const cols = Object.fromEntries(FIELDS.map((f) => [f, new Float64Array(bases.length).fill(NaN)])) as Columns;
    bases.forEach((base, doc) => {
      const record = yearOf(base, an, latest, companies[doc].cui);
      if (record) for (const f of FIELDS) cols[f][doc] = record[f];
    });
    return cols;
  });
}

export interface Ranking {
  summary: RankingSummary;
  /** Universe documents, best first. */
  docs: Int32Array;
  values: Float64Array;
  previous: Float64Array | null;
}
const rankings = new Cache<Ranking>(32);

function compute(id: RankingId, latest: number): Ranking {
  const u = universe();
  const field = CATEGORIES[id.categorie].field;
  const values = yearColumns(id.an, latest)[field];
  const inScope = (doc: number) =>
    id.scop === "national" || (id.scop === "judet" ? u.county[doc] === id.area : u.locality[doc] === id.area);
  const docs: number[] = [];
  values.forEach((v, doc) => {
    if (!isNaN(v) && inScope(doc)) docs.push(doc);
  });
  // Highest value first; ties by ascending CUI (documents are in CUI order).
  docs.sort((a, b) => values[b] - values[a] || a - b);
  return {
    summary: summaryOf(id, latest),
    docs: Int32Array.from(docs),
    values,
    previous: id.an > FIRST_YEAR ? yearColumns(id.an - 1, latest)[field] : null,
  };
}

/** The ranking of a slug, or null for an unknown slug. */
export function ranking(slug: string, latest: number): Ranking | null {
  const id = parseSlug(slug, latest);
  return id === null ? null : rankings.get(`${slugOf(id)}/${latest}`, () => compute(id, latest));
}

/** Rows [from, from + count) of a ranking. */
export function rankingRows(r: Ranking, from: number, count: number): RankingRow[] {
  const { companies } = universe();
  const rows: RankingRow[] = [];
  for (let i = from; i < Math.min(from + count, r.docs.length); i++) {
    const doc = r.docs[i];
    const valoare = r.values[doc];
    const prev = r.previous ? r.previous[doc] : NaN;
    rows.push({
      pozitie: i + 1,
      cui: companies[doc].cui,
      denumire: companies[doc].denumire,
      valoare,
      valoare_anterioara: isNaN(prev) ? null : prev,
      variatie: isNaN(prev) || prev === 0 ? null : Math.round(((valoare - prev) / Math.abs(prev)) * 1000) / 10,
    });
  }
  return rows;
}
