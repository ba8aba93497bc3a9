/** What FIRMA.CUI says in its cells, in English (match-ro.ts says why these are apart). */
import type { MatchMessageKey } from "./match-ro";

export const matchEn: Readonly<Record<MatchMessageKey, string>> = {
  "match.likely": "Likely {name} (CUI {cui}), not certain: check it and type the CUI.",
  "match.ambiguous": "Ambiguous: {count} companies fit; add the county or the full name.",
  "match.tooMany": "Too many companies fit (100 or more); add words of the name or the county.",
  "match.notFound": "No company of that name; check the name.",
  "match.otherCounty": "No company of that name in the county given ({count} in other counties); check the county.",
  "match.emptyName": "The company's name is missing: the cell is empty.",
  "match.badName": "Not a company name: “{input}”; type the company's name.",
  "match.unknownCounty": "Unknown county: “{county}”; type its code (BC) or name (Bacău).",
};
