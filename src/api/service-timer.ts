/**
 * A request's deadline that measures the service, not this thread.
 *
 * - It is armed when the task that starts the request ends: what else that task does (the rest of
 *   Excel's invocations of a column, fetch's own loading on its first use, a server's other requests)
 *   is not time the service had.
 * - When it comes due, the answer may already be waiting behind work that kept the thread busy: the
 *   expiry comes one turn later, after the I/O already received is read (Node runs timers before it
 *   reads sockets; a browser's task queue likewise holds a network task queued before the timer's).
 *
 * A timed-out request may have been charged, and one that is tried again surely is: a deadline that
 * counted this thread's busy time made the user pay twice for an answer the service gave in time
 * (CI, stop 28: 32 calls for 30). Used by the client (http.ts) and by `firma serve` towards the service
 * (relay.ts, firm/upstream.ts). A real timeout still ends at most one task late.
 */
export interface ServiceTimer {
  /** Whether the deadline passed and `expire` was called. */
  readonly expired: boolean;
  /** The request ended (answered, failed or aborted): the timer does nothing more. */
  stop(): void;
}

export function serviceTimer(ms: number, expire: () => void): ServiceTimer {
  let stopped = false;
  let expired = false;
  let timer: ReturnType<typeof setTimeout> = setTimeout(() => {
    if (stopped) return;
    timer = setTimeout(() => {
      if (stopped) return;
      timer = setTimeout(() => {
        if (stopped) return;
        expired = true;
        expire();
      }, 0);
    }, ms);
  }, 0);
  return {
    get expired() {
      return expired;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** An AbortSignal that aborts when the service has had `ms` (see serviceTimer), and the timer behind it. */
export function serviceDeadline(ms: number): { signal: AbortSignal; timer: ServiceTimer } {
  const controller = new AbortController();
  return { signal: controller.signal, timer: serviceTimer(ms, () => controller.abort()) };
}
