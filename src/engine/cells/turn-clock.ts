/**
 * A clock read once per synchronous run of work (until the next microtask): the cells of a
 * recalculation ask whether their answers are fresh, and which year is the latest, with one read of the
 * clock between them instead of one or two per cell. Lifetimes are days: an answer that expires during
 * one run of cells counts as fresh until that run ends. Only over Date.now itself: a clock a test or
 * an option injects is read every time.
 */
export function turnClock(now: () => number): () => number {
  if (now !== Date.now) return now;
  let t = NaN;
  const end = (): void => {
    t = NaN;
  };
  return () => {
    if (t !== t) {
      t = Date.now();
      void Promise.resolve().then(end);
    }
    return t;
  };
}
