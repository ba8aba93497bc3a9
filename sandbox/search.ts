/**
 * Company search: `q` is a CUI (with or without RO), a trade-registry code, or a name, searched as
 * the setting `searchMode` says: words that must each start a word of the name, in any order (the
 * default), or the text as a substring of the name; case ignored, diacritics folded or not
 * (`searchDiacritics`). Names are searched within the search universe (plus companies whose name an
 * override changed); CUIs and registry codes over the whole dataset. Results in ascending CUI.
 */
import { Company, company, companyByJCode } from "./profile";
import { findCounty } from "./romania";
import { fold, upperWords, words } from "./text";
import { universe } from "./universe";

/** How names are searched (sandbox settings `searchMode`, `searchDiacritics`). */
export interface NameSearch {
  mode: "word-prefix" | "substring";
  diacritics: "folded" | "exact";
  /** CUI → a name that replaces the generated one (the `overrides` setting's `denumire`). */
  names?: Readonly<Record<string, string>>;
}

const DEFAULT_SEARCH: NameSearch = { mode: "word-prefix", diacritics: "folded" };

export interface SearchQuery {
  q?: string;
  /** County code or name. */
  judet?: string;
  /** CAEN code, or its first digits ("62" = every 62xx). */
  caen?: string;
  stare?: string;
}

/** At most this many words of `q` are used. */
const MAX_WORDS = 12;

class NameIndex {
  /** Distinct name words, sorted, with the ascending document numbers holding each. */
  private readonly vocabulary: string[];
  private readonly postings: number[][];

  constructor(
    private readonly size: number,
    names: string[],
    split: (name: string) => string[],
  ) {
    const byWord = new Map<string, number[]>();
    names.forEach((name, doc) => {
      for (const w of new Set(split(name))) {
        const list = byWord.get(w);
        if (list) list.push(doc);
        else byWord.set(w, [doc]);
      }
    });
    this.vocabulary = [...byWord.keys()].sort();
    this.postings = this.vocabulary.map((w) => byWord.get(w) as number[]);
  }

  /** Documents in which every query word starts some name word, ascending. */
  find(query: string[]): number[] {
    // seen[doc] = how many of the query words so far the doc matched; counted once per query word.
    const seen = new Uint8Array(this.size);
    query.forEach((q, i) => {
      for (let k = this.firstAtLeast(q); k < this.vocabulary.length && this.vocabulary[k].startsWith(q); k++) {
        for (const doc of this.postings[k]) if (seen[doc] === i) seen[doc] = i + 1;
      }
    });
    const out: number[] = [];
    for (let doc = 0; doc < this.size; doc++) if (seen[doc] === query.length) out.push(doc);
    return out;
  }

  private firstAtLeast(word: string): number {
    let lo = 0;
    let hi = this.vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.vocabulary[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const indexes: Partial<Record<NameSearch["diacritics"], NameIndex>> = {};

function nameIndex(diacritics: NameSearch["diacritics"]): NameIndex {
  let index = indexes[diacritics];
  if (!index) {
    const { companies } = universe();
    const split = diacritics === "folded" ? words : upperWords;
    index = indexes[diacritics] = new NameIndex(
      companies.length,
      companies.map((c) => c.denumire),
      split,
    );
  }
  return index;
}

const namesAs: Partial<Record<NameSearch["diacritics"], string[]>> = {};

/** The universe's names as the substring search compares them: upper case, folded or not. */
function comparedNames(diacritics: NameSearch["diacritics"]): string[] {
  return (namesAs[diacritics] ??= universe().companies.map((c) => compared(c.denumire, diacritics)));
}

function compared(text: string, diacritics: NameSearch["diacritics"]): string {
  const upper = diacritics === "folded" ? fold(text) : text.toUpperCase();
  return upper.replace(/\s+/g, " ").trim();
}

/** Whether one name matches the query (a name an override planted). */
function nameMatches(name: string, q: string, how: NameSearch): boolean {
  if (how.mode === "substring") return compared(name, how.diacritics).includes(compared(q, how.diacritics));
  const split = how.diacritics === "folded" ? words : upperWords;
  const have = split(name);
  return split(q)
    .slice(0, MAX_WORDS)
    .every((w) => have.some((h) => h.startsWith(w)));
}

/** "in insolventa" → "IN_INSOLVENTA". */
function normalizeStare(text: string): string {
  return fold(text.trim()).replace(/[\s-]+/g, "_");
}

function filterOf(query: SearchQuery): (c: Company) => boolean {
  const county = query.judet === undefined ? undefined : (findCounty(query.judet)?.name ?? null);
  const stare = query.stare === undefined ? undefined : normalizeStare(query.stare);
  const caen = query.caen?.trim();
  return (c) =>
    (county === undefined || c.judet === county) &&
    (stare === undefined || c.stare === stare) &&
    (caen === undefined || c.caen_principal.startsWith(caen));
}

/** Candidates for `q` before the filters. */
function candidates(q: string | undefined, how: NameSearch): Company[] {
  const text = (q ?? "").trim();
  if (text === "") return universe().companies;
  const cui = /^(?:RO)?\s*(\d{1,10})$/i.exec(text);
  if (cui) {
    const found = company(Number(cui[1]));
    return found ? [found] : [];
  }
  if (/^J\s*\d/i.test(text)) {
    const found = companyByJCode(text);
    return found ? [found] : [];
  }
  const { companies } = universe();
  let found: Company[];
  if (how.mode === "substring") {
    const needle = compared(text, how.diacritics);
    if (!/[\p{L}\p{N}]/u.test(needle)) return [];
    const names = comparedNames(how.diacritics);
    found = [];
    for (let doc = 0; doc < names.length; doc++) if (names[doc].includes(needle)) found.push(companies[doc]);
  } else {
    const query = (how.diacritics === "folded" ? words : upperWords)(text).slice(0, MAX_WORDS);
    if (query.length === 0) return [];
    found = nameIndex(how.diacritics)
      .find(query)
      .map((doc) => companies[doc]);
  }
  const planted = how.names ?? {};
  if (Object.keys(planted).length === 0) return found;
  // Companies whose name an override changed are found by their new name only.
  const out = found.filter((c) => planted[String(c.cui)] === undefined);
  for (const [cui, name] of Object.entries(planted)) {
    const c = company(Number(cui));
    if (c && nameMatches(name, text, how)) out.push({ ...c, denumire: name });
  }
  return out.sort((a, b) => a.cui - b.cui);
}

/** Every match, ascending CUI. */
export function search(query: SearchQuery, how: NameSearch = DEFAULT_SEARCH): Company[] {
  return candidates(query.q, how).filter(filterOf(query));
}
