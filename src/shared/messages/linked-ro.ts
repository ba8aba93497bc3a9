/**
 * What a linked company (the "Firmă" data type) says on its card, in Romanian: kept apart from ro.ts, in
 * the chunk the add-in loads with the load service (linked-company.ts), so that its startup scripts do not
 * carry them (bench/run.ts). English is in linked-en.ts, under the same keys; the conventions are ro.ts's.
 */
export const linkedRo = {
  "linked.domain": "Firmă",
  "linked.updated": "Actualizat",
  "linked.note": "Notă",
  "linked.stale": "Valori din {date}: nu s-au putut actualiza acum (serviciul indisponibil, sau oprite de pragul ori bugetul de credite).",
};

export type LinkedMessageKey = keyof typeof linkedRo;
