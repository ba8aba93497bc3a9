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
