/**
 * The watch lists' scheduler as `firma serve` runs it in custody mode (custody.ts): its own lease holder,
 * the firm's upstream and the loader's knowledge of `include`, each check's result in the server's log;
 * started once the server is ready (the firm's lists' account set from `--watch-budget` first), its
 * leases let go at close. The scheduling itself is watch-scheduler.ts's.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { t } from "../../shared/messages/node";
import type { CustodyOptions, WatchOptions } from "./custody";
import { Leases } from "./lease";
import type { FirmLoader } from "./loader";
import type { Metrics } from "./metrics";
import type { upstream } from "./upstream";
import { WatchScheduler } from "./watch-scheduler";

/** The scheduler of the watch lists' checks, started once the server is ready, each check's result in the log. */
export function watchScheduler(
  app: FastifyInstance,
  o: Pick<CustodyOptions, "store" | "maxCreditsPerDay" | "lang">,
  w: WatchOptions,
  firmUpstream: ReturnType<typeof upstream>,
  loader: FirmLoader,
  metrics: Metrics,
  now: () => number,
  storeError: (e: unknown, what?: string) => void,
): WatchScheduler {
  const lang = o.lang ?? "ro";
  const holder = randomUUID();
  const leases = new Leases({ store: o.store, holder, ttlMs: w.leaseMs ?? 30_000, now, onError: (e) => storeError(e, "watch lease") });
  const scheduler = new WatchScheduler({
    deps: {
      store: o.store,
      upstream: firmUpstream,
      maxPerDay: o.maxCreditsPerDay,
      leases,
      holder,
      now,
      metrics,
      afterCheck: w.afterCheck,
      // What the people's batches showed of `include` (and what the checks learn): the checks of a
      // service that ignores it ask the profiles only.
      include: loader,
      revokedReason: (owner) => t(lang, "watch.ownerRevokedReason", { owner }),
      onError: (e, what) => storeError(e, what),
    },
    defaultSchedule: w.defaultSchedule,
    sweepMs: Math.max(1000, (w.leaseMs ?? 30_000) / 3),
    onResult: (r) =>
      app.log.info(
        {
          watch: r.list,
          tick: r.tick,
          outcome: r.outcome,
          companies: r.companies,
          credits: r.credits,
          changes: r.changes.length,
          reason: r.reason,
        },
        "watch check",
      ),
  });
  app.addHook("onReady", async () => {
    await o.store.watchChecks.firmAccount(w.budget, now());
    await scheduler.start();
  });
  app.addHook("onClose", async () => {
    await leases.close();
  });
  return scheduler;
}
