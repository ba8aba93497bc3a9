/**
 * What a check of a watch list found, against what the list itself last saw (its baseline), for the
 * fields of WATCHED_FIELDS (src/engine/cache/changes.ts, compared the same way). A company seen for
 * the first time, or a field seen for the first time, sets the baseline and alerts nothing. A
 * company the service no longer knows is a change of its status to none, but only once a profile
 * call confirmed it (a batch that left it out is no proof); a call that failed is never a change.
 */
import { sameValue, WATCHED_FIELDS } from "../../engine/cache/changes";

/** What the check learned of one company. */
export type Observation =
  /** Its profile (from a batch item or a profile call). */
  | { kind: "found"; profile: Record<string, unknown> }
  /** A profile call confirmed the service has no such company. */
  | { kind: "gone" }
  /** Nothing known (the call failed, the budget ran out): no change, the baseline stays. */
  | { kind: "failed" };

/** The list's baseline: for each company, each field's last seen value. */
export type Seen = Map<number, Map<string, unknown>>;

export interface WatchChange {
  cui: number;
  field: string;
  before: unknown;
  after: unknown;
  /** The company's name as last known (for the alert), or null. */
  name: string | null;
}

export interface SeenUpdate {
  cui: number;
  field: string;
  value: unknown;
}

export interface Diff {
  changes: WatchChange[];
  /** The baseline's new values: first sightings and changes. */
  updates: SeenUpdate[];
  /** Companies with no answer (kind `failed`): the check must say it could not look at them. */
  unknown: number[];
}

/** The field that says a company exists: `null` once the service confirmed it no longer knows it. */
const STATUS = "stare";

export function diff(seen: Seen, observed: ReadonlyMap<number, Observation>): Diff {
  const out: Diff = { changes: [], updates: [], unknown: [] };
  for (const [cui, o] of observed) {
    const before = seen.get(cui);
    if (o.kind === "failed") {
      out.unknown.push(cui);
      continue;
    }
    const known = before?.get("denumire");
    if (o.kind === "gone") {
      const was = before?.get(STATUS);
      if (before === undefined || was === undefined) out.updates.push({ cui, field: STATUS, value: null });
      else if (was !== null) {
        out.changes.push({ cui, field: STATUS, before: was, after: null, name: typeof known === "string" ? known : null });
        out.updates.push({ cui, field: STATUS, value: null });
      }
      continue;
    }
    const name = typeof o.profile.denumire === "string" ? o.profile.denumire : typeof known === "string" ? known : null;
    for (const field of WATCHED_FIELDS) {
      const after = o.profile[field];
      // A field the answer does not carry (a batch without it) is no sign it went away.
      if (after === undefined) continue;
      if (before === undefined || !before.has(field)) {
        out.updates.push({ cui, field, value: after });
        continue;
      }
      const was = before.get(field);
      if (sameValue(was, after)) continue;
      out.changes.push({ cui, field, before: was, after, name });
      out.updates.push({ cui, field, value: after });
    }
  }
  return out;
}
