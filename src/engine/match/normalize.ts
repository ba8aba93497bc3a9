/**
 * Company names as FIRMA compares them: case, diacritics (ș ş ț ţ ă â î, comma and cedilla forms
 * alike), punctuation and spacing set aside; a trailing legal form (SRL, S.R.L., SA, SRL-D, SNC, SCS,
 * SCA, PFA, II, IF …) and a leading "SC" set aside too. The same rule reads the user's text and the
 * service's official names, so two names are the same when their comparison forms are equal.
 * What the user typed is also read for the search: the text between a leading SC and the legal form
 * (in the user's own spelling: the service's search may or may not fold diacritics), and what follows
 * a legal form in the middle ("SC Dedeman SRL Bacău": "BACAU", often the county).
 */

/** Cedilla forms (ş ţ, as older fonts typed them) → comma-below forms (ș ț), upper case. */
export function upperRo(text: string): string {
  return text
    .toUpperCase()
    .replace(/\u015E/g, "\u0218")
    .replace(/\u0162/g, "\u021A");
}

/** Upper case without diacritics: "Făget" → "FAGET", "ŞTEFAN" → "STEFAN". */
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase();
}

/** Legal forms set aside at the end of a name (words as tokens() makes them). */
const TRAILING_FORMS = ["SRL", "SA", "SNC", "SCS", "SCA", "SRLD", "PFA", "II", "IF", "SCM", "RA", "GIE", "SPRL"];
/** Long forms, written out. */
const LONG_FORMS = [
  "SOCIETATE CU RASPUNDERE LIMITATA",
  "SOCIETATEA CU RASPUNDERE LIMITATA",
  "SOCIETATE PE ACTIUNI",
  "PERSOANA FIZICA AUTORIZATA",
  "INTREPRINDERE INDIVIDUALA",
  "INTREPRINDERE FAMILIALA",
].map((f) => f.split(" "));
/** Forms that also end a name in the middle of the text: what follows is not the name ("SC X SRL Bacău"). */
const MIDDLE_FORMS = new Set(["SRL", "SRLD", "SA", "SNC", "SCS", "SCA", "PFA"]);

interface Token {
  /** The word folded (its key), or "" for a separator. */
  key: string;
  /** The text as typed, upper case, comma-below diacritics. */
  text: string;
}

/**
 * Words and separators; letters joined by dots make one word ("S.R.L." → SRL, "A.B.C." → ABC),
 * "SRL-D" one word SRLD.
 */
function tokens(text: string): Token[] {
  const parts = upperRo(text).match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu) ?? [];
  const out: Token[] = [];
  let dotted = false; // the last word is a run of single letters joined by dots
  for (const part of parts) {
    const word = /^[\p{L}\p{N}]/u.test(part);
    const prev = out[out.length - 1];
    const beforeSep = out[out.length - 2];
    if (word) {
      const key = foldText(part);
      if (key.length === 1 && prev && prev.key === "" && prev.text === "." && beforeSep && dotted) {
        out.pop();
        beforeSep.key += key;
        beforeSep.text += `.${part}`;
        continue;
      }
      if (key === "D" && prev && prev.key === "" && prev.text === "-" && beforeSep?.key === "SRL") {
        out.pop();
        beforeSep.key = "SRLD";
        beforeSep.text += `-${part}`;
        continue;
      }
      dotted = key.length === 1;
      out.push({ key, text: part });
    } else {
      if (part !== "." || !dotted) dotted = false;
      out.push({ key: "", text: part });
    }
  }
  return out;
}

const wordsOf = (ts: Token[]) => ts.filter((t) => t.key !== "").map((t) => t.key);

/** How many words at the end of `words` (before index `end`) form a legal form; 0 if none. */
function formEndingAt(words: string[], end: number): number {
  if (end >= 2 && words[end - 2] === "SRL" && words[end - 1] === "D") return 2; // "S.R.L.-D."
  if (end >= 1 && TRAILING_FORMS.includes(words[end - 1])) return 1;
  for (const f of LONG_FORMS) {
    if (end >= f.length && f.every((w, i) => words[end - f.length + i] === w)) return f.length;
  }
  return 0;
}

/** The words of a name with a leading SC and trailing legal forms set aside (none left: only a legal form). */
function nameWords(words: string[]): string[] {
  const start = words[0] === "SC" ? 1 : 0;
  let end = words.length;
  for (let n = formEndingAt(words, end); n > 0 && end - n >= start; n = formEndingAt(words, end)) end -= n;
  return words.slice(start, end);
}

/**
 * The comparison form of a company name: "S.C. Făget Construct S.R.L." and "FAGET  CONSTRUCT SRL"
 * both give "FAGET CONSTRUCT"; "" when nothing but a legal form is left.
 */
export function normalizeName(text: string): string {
  return nameWords(wordsOf(tokens(text))).join(" ");
}

/** What the user's text says, for the search and the comparison. */
export interface ParsedName {
  /** The comparison form of the name (normalizeName of what precedes a legal form in the middle). */
  name: string;
  /** Other comparison forms the text may mean: the whole text, the name with the words after its legal form. */
  alternatives: string[];
  /** The text to search: the name in the user's spelling, upper case (punctuation inside kept). */
  query: string;
  /** What followed a legal form in the middle ("BACĂU" of "SC Dedeman SRL Bacău"), as typed; "" if nothing. */
  tail: string;
}

/** Reads a name the user typed; null when it holds no name (empty, or only legal forms). */
export function parseName(text: string): ParsedName | null {
  const ts = tokens(text);
  const wordAt: number[] = [];
  ts.forEach((t, i) => t.key !== "" && wordAt.push(i));
  const words = wordAt.map((i) => ts[i].key);
  if (words.length === 0) return null;
  const start = words[0] === "SC" ? 1 : 0;
  // A legal form in the middle ends the name: "SC DEDEMAN SRL BACĂU".
  let cut = words.length;
  for (let i = start + 1; i < words.length - 1; i++) {
    if (MIDDLE_FORMS.has(words[i])) {
      cut = i;
      break;
    }
    const long = LONG_FORMS.find((f) => i + f.length < words.length && f.every((w, k) => words[i + k] === w));
    if (long) {
      cut = i;
      break;
    }
  }
  const core = nameWords(words.slice(0, cut));
  if (core.length === 0) return null;
  const first = wordAt[start];
  const last = wordAt[start + core.length - 1];
  const query = ts
    .slice(first, last + 1)
    .map((t) => t.text)
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  let tail = "";
  const alternatives = new Set<string>();
  if (cut < words.length) {
    const formLength = formLengthAt(words, cut);
    const tailWords = words.slice(cut + formLength);
    tail = ts
      .slice(wordAt[cut + formLength], wordAt[words.length - 1] + 1)
      .map((t) => t.text)
      .join("")
      .trim();
    alternatives.add(nameWords([...core, ...tailWords]).join(" "));
  }
  alternatives.add(nameWords(words).join(" "));
  const name = core.join(" ");
  alternatives.delete(name);
  alternatives.delete("");
  return { name, alternatives: [...alternatives], query, tail };
}

function formLengthAt(words: string[], i: number): number {
  if (MIDDLE_FORMS.has(words[i])) return 1;
  return LONG_FORMS.find((f) => f.every((w, k) => words[i + k] === w))?.length ?? 1;
}

/** The words of a comparison form. */
export function nameWordsOf(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}
