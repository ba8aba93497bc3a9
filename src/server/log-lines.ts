/**
 * The server's log lines (pino's JSON lines: one per relayed request), written together once per turn of
 * the event loop instead of one write each. Standard output is a pipe under a service manager or a
 * container, and Node writes to pipes synchronously on Linux: each write is a system call that wakes the
 * reader. An add-in over HTTP/2 sends a hundred calls at once, whose hundred lines cost the server's one
 * thread about 15 ms one by one (150 µs each in a profile of the H2 bench) and one write together. A crash
 * loses at most the lines of its own turn; `flush` writes them at once (on close, and on the process's exit).
 */
export interface LogLines {
  write(line: string): void;
  flush(): void;
}

export function logLines(out: (s: string) => unknown): LogLines {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0] : pending.join("");
    pending = [];
    out(text);
  };
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
