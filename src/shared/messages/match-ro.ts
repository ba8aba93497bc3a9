/**
 * What FIRMA.CUI says in its cells, in Romanian: kept apart from ro.ts, in the chunk the add-in loads
 * with FIRMA.CUI (match-function.ts), so that its startup scripts do not carry them (bench/run.ts).
 * English is in match-en.ts, under the same keys; the conventions are ro.ts's.
 */
export const matchRo = {
  "match.likely": "Probabil {name} (CUI {cui}), dar nu sigur: verificați și scrieți CUI-ul.",
  "match.ambiguous": "Ambiguu: {count} firme se potrivesc; adăugați județul sau numele complet.",
  "match.tooMany": "Prea multe firme se potrivesc (100 sau mai multe); adăugați cuvinte din nume sau județul.",
  "match.notFound": "Nicio firmă cu acest nume; verificați numele.",
  "match.otherCounty": "Nicio firmă cu acest nume în județul dat ({count} în alte județe); verificați județul.",
  "match.emptyName": "Numele firmei lipsește: celula e goală.",
  "match.badName": "Nu e un nume de firmă: „{input}”; scrieți denumirea firmei.",
  "match.unknownCounty": "Județ necunoscut: „{county}”; scrieți codul (BC) sau numele (Bacău).",
};

export type MatchMessageKey = keyof typeof matchRo;
