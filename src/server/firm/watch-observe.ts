/**
 * What a check asks the service about a list's companies, and what it learns (watch-diff.ts's
 * Observation per company): identification batches of 100 asking `include` for the watched fields
 * (O10), then one profile call for each company a batch left out, to tell "the service has no such
 * company" (404: gone) from a batch that merely skipped it. Any other failure is `failed`: never a
 * change. `budget` is called before each call and may refuse it: the companies not asked are then
 * `failed`, and `stopped` says so, so that a check cut short never reads as "nothing changed".
 *
 * This is the seam `firma watch run` and the scheduler build on: the client it is given decides
 * where the calls go (the firm's key upstream) and the budget who pays.
 */
import { MAX_BATCH_IDENTIFICATION, type FirmaClient } from "../../api/client";
import { NotFoundError } from "../../api/errors";
import { WATCHED_FIELDS } from "../../engine/cache/changes";
import type { Observation } from "./watch-diff";

export interface Observed {
  observations: Map<number, Observation>;
  /** Calls made (each one credit). */
  calls: number;
  /** True when the budget refused a call: the check is incomplete. */
  stopped: boolean;
}

/** The fields a batch is asked to carry: the watched ones the batch does not carry anyway. */
const INCLUDE = WATCHED_FIELDS.filter((f) => f !== "denumire" && f !== "stare");

export async function observe(
  client: Pick<FirmaClient, "batchIdentification" | "getCompany">,
  cuis: readonly number[],
  budget: () => Promise<boolean> | boolean = () => true,
): Promise<Observed> {
  const out: Observed = { observations: new Map(), calls: 0, stopped: false };
  const missing: number[] = [];
  for (let i = 0; i < cuis.length; i += MAX_BATCH_IDENTIFICATION) {
    const part = cuis.slice(i, i + MAX_BATCH_IDENTIFICATION);
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
        if (item) out.observations.set(cui, { kind: "found", profile: item });
        else missing.push(cui);
      }
    } catch {
      for (const cui of part) out.observations.set(cui, { kind: "failed" });
    }
  }
  for (const cui of missing) {
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
