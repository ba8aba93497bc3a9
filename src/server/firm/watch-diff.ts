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

/** The field of a financial-year check: the latest financial year the service has for a company. */
export const FINANCIAL_YEAR = "an_financiar";

/**
 * What a financial-year check learned of one company: the latest year the service's answer holds for
 * it, null when it has no figures for the service's latest year, `failed` when nothing is known.
 */
export type YearObservation = number | null | "failed";

/**
 * A financial-year check against the list's baseline (the latest year it last saw per company). A
 * company seen for the first time sets it and alerts nothing; a later year than the one last seen (or
 * a year where none was seen) is a change; a company without figures for the latest year keeps the
 * year it had (a year is not taken back: the service's latest year moving on is no change until a
 * company publishes it).
 */
export function diffYears(seen: Seen, observed: ReadonlyMap<number, YearObservation>): Diff {
  const out: Diff = { changes: [], updates: [], unknown: [] };
  for (const [cui, year] of observed) {
    if (year === "failed") {
      out.unknown.push(cui);
      continue;
    }
    const before = seen.get(cui);
    if (before === undefined || !before.has(FINANCIAL_YEAR)) {
      out.updates.push({ cui, field: FINANCIAL_YEAR, value: year });
      continue;
    }
    const was = before.get(FINANCIAL_YEAR);
    if (year === null || (typeof was === "number" && year <= was)) continue;
    const known = before.get("denumire");
    out.changes.push({ cui, field: FINANCIAL_YEAR, before: was ?? null, after: year, name: typeof known === "string" ? known : null });
    out.updates.push({ cui, field: FINANCIAL_YEAR, value: year });
  }
  return out;
}
