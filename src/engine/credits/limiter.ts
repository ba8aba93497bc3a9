/**
 * Runs at most `n` tasks at once, in order. (p-limit does this job but ships as ESM only,
 * which our Jest and the Office bundle would both need extra steps for; it is a dozen lines.)
 */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  if (!(Number.isInteger(n) && n >= 1)) throw new TypeError("concurrency must be a whole number ≥ 1");
  let active = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    if (active >= n || queue.length === 0) return;
    active++;
    queue.shift()!();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            active--;
            next();
          });
      });
      next();
    });
}
