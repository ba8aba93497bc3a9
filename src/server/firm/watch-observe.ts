/**
 * What a check asks the service about a list's companies, and what it learns.
 *
 * The identification check (observe): batches of 100 asking `include` for the watched fields (O10),
 * then one profile call for each company a batch left out, to tell "the service has no such company"
 * (404: gone) from a batch that merely skipped it, and for each company whose batch item lacks a
 * watched field (a service that ignores `include`): a field a batch does not carry is never compared,
 * so it is asked of the profile. A service known to ignore `include` (`includeIgnored`: the firm
 * server learned it from its people's batches, or this check from its own first batch whose items
 * carried none of the fields asked) is asked the profiles only, one per company: a batch would add a
 * credit and nothing the profiles do not bring. Any other failure is `failed`: never a change.
 *
 * The financial-year check (observeYears): financial batches of 50 without a year, which the service
 * answers with its latest year (O12); a company absent from the answer has no figures for that year.
 *
 * `budget` is called before each call and may refuse it: the companies not asked are then `failed`,
 * and `stopped` says so, so that a check cut short never reads as "nothing changed". The client given
 * decides where the calls go (the firm's key upstream) and the budget who pays.
 */
import { MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION, type FirmaClient } from "../../api/client";
import { NotFoundError } from "../../api/errors";
import type { FinancialYear } from "../../api/types";
import { WATCHED_FIELDS } from "../../engine/cache/changes";
import type { Observation, YearObservation } from "./watch-diff";

export interface Observed {
  observations: Map<number, Observation>;
  /** Calls made (each one credit). */
  calls: number;
  /** True when the budget refused a call: the check is incomplete. */
  stopped: boolean;
  /** What the batches showed of `include`: true ignored, false honoured, null not seen (no batch, or no item). */
  includeIgnored: boolean | null;
}

/** The fields a batch is asked to carry: the watched ones the batch does not carry anyway. */
const INCLUDE = WATCHED_FIELDS.filter((f) => f !== "denumire" && f !== "stare");

export interface ObserveOptions {
  /** What is known of the service already: true, it ignores `include` (the profiles only). */
  includeIgnored?: boolean | null;
}

export async function observe(
  client: Pick<FirmaClient, "batchIdentification" | "getCompany">,
  cuis: readonly number[],
  budget: () => Promise<boolean> | boolean = () => true,
  o: ObserveOptions = {},
): Promise<Observed> {
  const out: Observed = { observations: new Map(), calls: 0, stopped: false, includeIgnored: null };
  /** Companies asked of their profile: left out of a batch, or their item without every watched field. */
  const profiles: number[] = [];
  let ignored = o.includeIgnored === true;
  for (let i = 0; i < cuis.length; i += MAX_BATCH_IDENTIFICATION) {
    const part = cuis.slice(i, i + MAX_BATCH_IDENTIFICATION);
    if (ignored) {
      profiles.push(...part);
      continue;
    }
    if (out.stopped || !(await budget())) {
      out.stopped = true;
      for (const cui of part) out.observations.set(cui, { kind: "failed" });
      continue;
    }
    out.calls++;
    try {
      const items = await client.batchIdentification(part, { include: [...INCLUDE] });
      const byCui = new Map(items.map((it) => [Number(it.cui), it as unknown as Record<string, unknown>]));
      for (const cui of part) {
        const item = byCui.get(cui);
        if (item && INCLUDE.every((f) => item[f] !== undefined)) out.observations.set(cui, { kind: "found", profile: item });
        else profiles.push(cui);
      }
      const found = [...byCui.values()];
      if (found.length > 0) {
        // Items carrying none of the fields asked: the service ignores `include`; the rest go to their profiles.
        out.includeIgnored = found.every((it) => INCLUDE.every((f) => it[f] === undefined));
        ignored = out.includeIgnored;
      }
    } catch {
      for (const cui of part) out.observations.set(cui, { kind: "failed" });
    }
  }
  for (const cui of profiles) {
    if (out.stopped || !(await budget())) {
      out.stopped = true;
      out.observations.set(cui, { kind: "failed" });
      continue;
    }
    out.calls++;
    try {
      const profile = await client.getCompany(cui);
      out.observations.set(cui, { kind: "found", profile: profile as unknown as Record<string, unknown> });
    } catch (e) {
      out.observations.set(cui, { kind: e instanceof NotFoundError ? "gone" : "failed" });
    }
  }
  return out;
}

export interface ObservedYears {
  observations: Map<number, YearObservation>;
  calls: number;
  stopped: boolean;
}

/** The financial-year check's batches: the companies in ascending order, 50 a call (the same parts when a check is resumed). */
export function yearParts(cuis: readonly number[]): number[][] {
  const sorted = [...cuis].sort((a, b) => a - b);
  const parts: number[][] = [];
  for (let i = 0; i < sorted.length; i += MAX_BATCH_FINANCIAL) parts.push(sorted.slice(i, i + MAX_BATCH_FINANCIAL));
  return parts;
}

/** The latest year each company of `part` has in a financial batch's items (null: none). */
export function latestYears(part: readonly number[], items: readonly FinancialYear[]): Map<number, number | null> {
  const out = new Map<number, number | null>(part.map((c) => [c, null]));
  for (const it of items) {
    if (!out.has(it.cui)) continue;
    const was = out.get(it.cui);
    if (was === null || was === undefined || it.an > was) out.set(it.cui, it.an);
  }
  return out;
}

export async function observeYears(
  batch: (part: readonly number[]) => Promise<readonly FinancialYear[]>,
  parts: readonly (readonly number[])[],
  budget: () => Promise<boolean> | boolean = () => true,
): Promise<ObservedYears> {
  const out: ObservedYears = { observations: new Map(), calls: 0, stopped: false };
  for (const part of parts) {
    if (out.stopped || !(await budget())) {
      out.stopped = true;
      for (const cui of part) out.observations.set(cui, "failed");
      continue;
    }
    out.calls++;
    try {
      for (const [cui, year] of latestYears(part, await batch(part))) out.observations.set(cui, year);
    } catch {
      for (const cui of part) out.observations.set(cui, "failed");
    }
  }
  return out;
}
