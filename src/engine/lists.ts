/**
 * List answers (search, rankings, counties): cached whole under their key; callers asking the same
 * list while it loads share one fetch. Excel may deliver a recalculation's new call before the old
 * call's cancellation, or after it (learn.microsoft.com, "Custom functions: cancel a function"):
 * so the shared fetch has its own signal, aborted only when every caller has cancelled, and each
 * caller races its own signal — a cancelled caller never breaks the others.
 */
import { AbortedError, ApiError } from "../api/errors";
import type { CancelSignal } from "../api/types";
import type { PersistentCache } from "./cache";
import { failureHas } from "./failures";

interface Shared {
  promise: Promise<unknown>;
  controller: AbortController;
  callers: number;
}

export class ListFetches {
  private readonly inflight = new Map<string, Shared>();

  constructor(private readonly cache: PersistentCache) {}

  get<T>(key: string, ttl: number, fetcher: (signal: CancelSignal) => Promise<T>, signal?: CancelSignal): Promise<T> {
    const hit = this.cache.getFresh<T>(key);
    if (hit) return Promise.resolve(hit.value);
    if (signal?.aborted) return Promise.reject(new AbortedError());
    let shared = this.inflight.get(key);
    if (!shared) {
      const controller = new AbortController();
      const promise = fetcher(controller.signal).then(
        (v) => {
          this.cache.set(key, v, ttl);
          return v;
        },
        (e) => {
          const stale = this.cache.peek<T>(key);
          if (stale && e instanceof ApiError && failureHas(e, "staleStandsIn")) return stale.value;
          throw e;
        },
      );
      const entry: Shared = { promise, controller, callers: 0 };
      promise.then(
        () => this.inflight.get(key) === entry && this.inflight.delete(key),
        () => this.inflight.get(key) === entry && this.inflight.delete(key),
      );
      this.inflight.set(key, (shared = entry));
    }
    const s = shared;
    s.callers++;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const onAbort = () => {
        if (done) return;
        done = true;
        reject(new AbortedError());
        if (--s.callers === 0 && this.inflight.get(key) === s) {
          this.inflight.delete(key);
          s.controller.abort();
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      (s.promise as Promise<T>).then(
        (v) => {
          if (done) return;
          done = true;
          s.callers--;
          signal?.removeEventListener("abort", onAbort);
          resolve(v);
        },
        (e) => {
          if (done) return;
          done = true;
          s.callers--;
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      );
    });
  }
}
