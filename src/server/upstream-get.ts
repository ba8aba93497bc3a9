/**
 * `firma serve`'s GET to the service (the relay's calls with the person's key, custody's with the firm's),
 * on Node's own HTTP client with kept-alive connections. Not the global `fetch`: an add-in over HTTP/2 sends
 * a hundred calls at once, and the server relays them on one thread. Measured in one run against the
 * sandbox, 100 batch calls at once cost this process 36–73 ms of CPU through `fetch` (WHATWG streams and
 * objects around undici) and 14–29 ms through `http.get`, the same as undici's own `request`
 * (14–34 ms), which would have been one more dependency with a newer Node than FIRMA's.
 *
 * - A connection is kept for the next call while the service keeps it (the Keep-Alive hint it sends, or
 *   4 s: a connection the service closed meanwhile would fail the call that took it).
 * - A kept connection the service closed just as a call took it (ECONNRESET before any answer) is tried
 *   once more on a new one, as Node's documentation advises (`request.reusedSocket`): the service never
 *   read that call, so it cost nothing.
 * - No redirect is followed; an answer over `maxBytes` (its Content-Length, or what came) ends the call.
 */
import * as http from "node:http";
import * as https from "node:https";

export interface GetAnswer {
  status: number;
  /** A header's value (names in lower case), or null. */
  header(name: string): string | null;
  body: Buffer;
}

/** Why a GET gave no answer: `code` is Node's (ECONNREFUSED…), "too_large", or "aborted" when its signal ended it. */
export class GetFailure extends Error {
  constructor(
    readonly code: string,
    /** Whether an answer had begun (the service read the call). */
    readonly answered: boolean,
  ) {
    super(`upstream GET failed: ${code}`);
  }
}

export type UpstreamGet = (url: string, headers: Record<string, string>, signal: AbortSignal) => Promise<GetAnswer>;

/** How long a kept connection waits for the next call when the service does not say (undici's default). */
const KEEP_ALIVE_MS = 4_000;

export function upstreamGet(o: { maxBytes: number }): UpstreamGet {
  // The governor (upstream-governor.ts) bounds the calls at once, not the agent.
  const agents = {
    "http:": new http.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
    "https:": new https.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
  };
  const once = (url: URL, headers: Record<string, string>, signal: AbortSignal, fresh: boolean) =>
    new Promise<GetAnswer>((resolve, reject) => {
      const lib = url.protocol === "https:" ? https : http;
      const agent = agents[url.protocol as keyof typeof agents];
      let answered = false;
      const fail = (code: string) => reject(new GetFailure(code, answered));
      // `fresh`: the call tried again after a kept connection broke takes a new one (the others in the
      // pool may have been closed by the service at the same moment).
      const req = lib.get(url, { agent, headers, signal, ...(fresh ? { agent: false as const } : {}) }, (res) => {
        answered = true;
        const length = Number(res.headers["content-length"] ?? 0);
        if (length > o.maxBytes) {
          fail("too_large"); // before destroy, whose events would say the connection broke
          return res.destroy();
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on("data", (b: Buffer) => {
          size += b.length;
          if (size > o.maxBytes) {
            fail("too_large");
            res.destroy();
          } else parts.push(b);
        });
        res.on("end", () => {
          if (!res.complete) return fail("ECONNRESET");
          const h = res.headers;
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const v = h[name];
              return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
            },
            body: parts.length === 1 ? parts[0] : Buffer.concat(parts, size),
          });
        });
        res.on("error", (e: NodeJS.ErrnoException) => fail(signal.aborted ? "aborted" : (e.code ?? "ECONNRESET")));
        res.on("aborted", () => fail(signal.aborted ? "aborted" : "ECONNRESET"));
      });
      req.on("error", (e: NodeJS.ErrnoException) => {
        if (signal.aborted) return fail("aborted");
        if (!answered && !fresh && req.reusedSocket && e.code === "ECONNRESET")
          return once(url, headers, signal, true).then(resolve, reject);
        fail(e.code ?? "ECONNRESET");
      });
    });
  return (url, headers, signal) => once(new URL(url), headers, signal, false);
}
