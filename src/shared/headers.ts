/**
 * The header rows of the row and list functions (PROFIL, FINANCIAR, CAUTA, TOPURI, TOP, JUDETE), in
 * the user's language: the catalog's `header.<name>`, its columns "|"-separated. The company card
 * names its properties with the same words.
 */
import type { Lang } from "./cells";
import { t, type MessageKey } from "./messages";

const HEADERS = {
  PROFIL: "header.profil",
  FINANCIAR: "header.financiar",
  CAUTA: "header.cauta",
  TOPURI: "header.topuri",
  TOP: "header.top",
  JUDETE: "header.judete",
} as const satisfies Record<string, MessageKey>;

export type HeaderName = keyof typeof HEADERS;

/** The header row of a list or row function, in the user's language (a new array: results go to Excel as they are). */
export function headers(name: HeaderName, lang: Lang): string[] {
  return t(lang, HEADERS[name]).split("|");
}
