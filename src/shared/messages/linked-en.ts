/** What a linked company says on its card, in English (linked-ro.ts says why these are apart). */
import type { LinkedMessageKey } from "./linked-ro";

export const linkedEn: Record<LinkedMessageKey, string> = {
  "linked.domain": "Company",
  "linked.updated": "Updated",
  "linked.note": "Note",
  "linked.stale":
    "Values of {date}: they could not be refreshed now (the service is unavailable, or the credit guard or budget held them).",
};
