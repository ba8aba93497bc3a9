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
 * - A call that breaks is never sent again here: a connection reset before any answer may be a kept
 *   connection the service had just closed, or a call it read (and charged) before it broke; the two
 *   look the same. The add-in's client tries again, as it did when this was `fetch`.
 * - A connection not made within CONNECT_MS fails as never sent (`fetch`'s undici gave up after 10 s too).
 * - Asks for gzip or deflate as `fetch` did, and gives the body decoded; says who calls (User-Agent).
 * - No redirect is followed; an answer over `maxBytes` (its Content-Length, or what came) ends the call.
 */
import * as http from "node:http";
import * as https from "node:https";
import * as zlib from "node:zlib";

export interface GetAnswer {
  status: number;
  /** A header's value (names in lower case), or null. */
  header(name: string): string | null;
  body: Buffer;
}

/**
 * Why a GET gave no answer: `code` is Node's (ECONNREFUSED…), CONNECT_TIMEOUT (no connection made),
 * "too_large", "bad_encoding" (a compressed body that does not decode), or "aborted" when its signal ended it.
 */
export class GetFailure extends Error {
  constructor(
    readonly code: string,
    /** Whether an answer had begun (the service read the call). */
    readonly answered: boolean,
  ) {
    super(`upstream GET failed: ${code}`);
  }
}

/**
 * What a GET that failed before its deadline tells whoever asked: an answer over the limit, an answer
 * that does not decode, an answer that broke off after it began, or no answer at all.
 */
export type GetFailureCode = "upstream_too_large" | "upstream_shape" | "upstream_broken" | "upstream_unreachable";

export function getFailureCode(e: unknown): GetFailureCode {
  if (!(e instanceof GetFailure)) return "upstream_unreachable";
  if (e.code === "too_large") return "upstream_too_large";
  if (e.code === "bad_encoding") return "upstream_shape";
  return e.answered ? "upstream_broken" : "upstream_unreachable";
}

export type UpstreamGet = (url: string, headers: Record<string, string>, signal: AbortSignal) => Promise<GetAnswer>;

/** How long a kept connection waits for the next call when the service does not say (undici's default). */
const KEEP_ALIVE_MS = 4_000;
/** How long a new connection may take to be made (undici's default). */
const CONNECT_MS = 10_000;
/** A connection not made within CONNECT_MS: nothing was sent. */
export const CONNECT_TIMEOUT = "ECONNECT_TIMEOUT";
const SENT = { "accept-encoding": "gzip, deflate", "user-agent": "firma-serve" };
/** The largest answer taken (decoded): a batch of 100 companies with every field is far below it. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export function upstreamGet(o: { maxBytes?: number } = {}): UpstreamGet {
  const maxBytes = o.maxBytes ?? MAX_ANSWER_BYTES;
  // The governor (upstream-governor.ts) bounds the calls at once, not the agent.
  const agents = {
    "http:": new http.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
    "https:": new https.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
  };
  return (address, headers, signal) =>
    new Promise<GetAnswer>((resolve, reject) => {
      const url = new URL(address);
      const lib = url.protocol === "https:" ? https : http;
      const agent = agents[url.protocol as keyof typeof agents];
      let answered = false;
      const fail = (code: string) => reject(new GetFailure(code, answered));
      const req = lib.get(url, { agent, headers: { ...SENT, ...headers }, signal }, (res) => {
        answered = true;
        const length = Number(res.headers["content-length"] ?? 0);
        if (length > maxBytes) {
          fail("too_large"); // before destroy, whose events would say the connection broke
          return res.destroy();
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on("data", (b: Buffer) => {
          size += b.length;
          if (size > maxBytes) {
            fail("too_large");
            res.destroy();
          } else parts.push(b);
        });
        res.on("end", () => {
          if (!res.complete) return fail("ECONNRESET");
          const h = res.headers;
          let body = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
          const coding = String(h["content-encoding"] ?? "")
            .trim()
            .toLowerCase();
          try {
            if (coding === "gzip" || coding === "x-gzip") body = zlib.gunzipSync(body, { maxOutputLength: maxBytes });
            else if (coding === "deflate") body = zlib.inflateSync(body, { maxOutputLength: maxBytes });
          } catch (e) {
            return fail((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" ? "too_large" : "bad_encoding");
          }
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const v = h[name];
              return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
            },
            body,
          });
        });
        res.on("error", (e: NodeJS.ErrnoException) => fail(signal.aborted ? "aborted" : (e.code ?? "ECONNRESET")));
        res.on("aborted", () => fail(signal.aborted ? "aborted" : "ECONNRESET"));
      });
      // A new connection that is not made in time: never sent.
      req.on("socket", (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(() => req.destroy(Object.assign(new Error("connect timeout"), { code: CONNECT_TIMEOUT })), CONNECT_MS);
        socket.once("connect", () => clearTimeout(timer));
        socket.once("close", () => clearTimeout(timer));
      });
      req.on("error", (e: NodeJS.ErrnoException) => fail(signal.aborted ? "aborted" : (e.code ?? "ECONNRESET")));
      // A request that ends without an answer or an error (a 101 answer: Node takes the socket away).
      req.on("close", () => {
        if (!answered) fail(signal.aborted ? "aborted" : "ECONNRESET");
      });
    });
}
