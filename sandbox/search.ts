/**
 * Company search: `q` is a CUI (with or without RO), a trade-registry code, or words that must each
 * start a word of the name (any order, case and diacritics ignored). Names are searched within the
 * search universe; CUIs and registry codes over the whole dataset. Results in ascending CUI.
 */
import { Company, company, companyByJCode } from "./profile";
import { findCounty } from "./romania";
import { fold, words } from "./text";
import { universe } from "./universe";

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
  ) {
    const byWord = new Map<string, number[]>();
    names.forEach((name, doc) => {
      for (const w of new Set(words(name))) {
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

let index: NameIndex | null = null;

function nameIndex(): NameIndex {
  if (!index) {
    const { companies } = universe();
    index = new NameIndex(
      companies.length,
      companies.map((c) => c.denumire),
    );
  }
  return index;
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
function candidates(q: string | undefined): Company[] {
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
  const query = words(text).slice(0, MAX_WORDS);
  if (query.length === 0) return [];
  const { companies } = universe();
  return nameIndex()
    .find(query)
    .map((doc) => companies[doc]);
}

/** Every match, ascending CUI. */
export function search(query: SearchQuery): Company[] {
  return candidates(query.q).filter(filterOf(query));
}
