/**
 * `inNextTask(v)`: a promise of `v` that settles in a task of its own, after the tasks already waiting.
 *
 * Why: an answer's cells are settled (stored, then every waiting cell resolved and shown by Excel) in
 * the same task as the answer arrived, unless that work is moved. Six answers that arrive together
 * then queue behind each other's cells, and the fifth answer's place (and the call after it) waits
 * for four answers' worth of cells. Moved to a task of its own, each answer frees its place and sends
 * the next call first (RequestOptions.onAnswer), then the cells are settled.
 *
 * Node (the CLI, the firm's server) has setImmediate, which runs after the I/O already received. A
 * browser page (Excel's shared runtime) has MessageChannel, whose message is a task queued after those
 * already waiting, without setTimeout's clamping (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers:
 * nested timers wait at least 4 ms). Anything else: setTimeout(0).
 */

type Run = () => void;

let post: ((run: Run) => void) | null = null;

function poster(): (run: Run) => void {
  const g = globalThis as {
    setImmediate?: (f: Run) => unknown;
    MessageChannel?: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(v: unknown): void } };
  };
  if (typeof g.setImmediate === "function") {
    const si = g.setImmediate;
    return (run) => void si(run);
  }
  if (typeof g.MessageChannel === "function") {
    // One channel; its messages carry nothing, the runs wait in order here.
    const waiting: Run[] = [];
    const channel = new g.MessageChannel();
    channel.port1.onmessage = () => {
      const run = waiting.shift();
      if (run) run();
    };
    return (run) => {
      waiting.push(run);
      channel.port2.postMessage(null);
    };
  }
  return (run) => void setTimeout(run, 0);
}

/** `v`, in a task after those already queued. */
export function inNextTask<T>(v: T): Promise<T> {
  post ??= poster();
  const p = post;
  return new Promise((resolve) => p(() => resolve(v)));
}
