/** Text folding shared by search, filters and slugs: case- and diacritic-insensitive forms. */

/** Upper case without diacritics: "Iași" → "IASI", "ȘTEFAN" → "STEFAN". */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase();
}

/** The alphanumeric words of a text, folded: "POPESCU & FIII S.R.L." → ["POPESCU", "FIII", "S", "R", "L"]. */
export function words(text: string): string[] {
  return fold(text)
    .split(/[^A-Z0-9]+/)
    .filter((w) => w !== "");
}

/** A URL-friendly form: "Cluj-Napoca" → "cluj-napoca", "Sector 1" → "sector-1". */
export function slugify(text: string): string {
  return words(text).join("-").toLowerCase();
}

/** The words of a text, upper case, diacritics kept: "Făget-Construct" → ["FĂGET", "CONSTRUCT"]. */
export function upperWords(text: string): string[] {
  return text
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}
