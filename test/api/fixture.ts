/**
 * A small scripted HTTP server on 127.0.0.1 (port 0) for the client's transport and reader tests:
 * real HTTP, answers decided by a route function per request. Not the sandbox: it knows nothing of
 * the service, it only serves what a test tells it to.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { withControlDigit } from "../../src/api/cui";

export interface Reply {
  status?: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (takes precedence over `body`). */
  text?: string;
  headers?: Record<string, string>;
  /** Wait before answering. */
  delayMs?: number;
  /** Drop the connection without an answer. */
  reset?: boolean;
  /** Send the head and the start of the body, then never finish. */
  stall?: boolean;
}

export interface Seen {
  path: string;
  search: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  rawUrl: string;
}

export type Route = (req: Seen, n: number) => Reply | Promise<Reply>;

export interface Fixture {
  url: string;
  requests: Seen[];
  /** Most requests in progress at once. */
  maxInFlight: number;
  /** Replace the route. */
  route: Route;
  close(): Promise<void>;
}

export async function startFixture(route: Route = () => ({ body: {} })): Promise<Fixture> {
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });

  const fixture: Fixture = {
    url: "",
    requests: [],
    maxInFlight: 0,
    route,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://fixture");
    const seen: Seen = {
      path: u.pathname,
      search: u.search.replace(/^\?/, ""),
      query: u.searchParams,
      headers: req.headers,
      rawUrl: req.url ?? "",
    };
    fixture.requests.push(seen);
    inFlight++;
    fixture.maxInFlight = Math.max(fixture.maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const reply = await fixture.route(seen, fixture.requests.length);
    if (reply.delayMs) await later(reply.delayMs);
    if (reply.reset) return void req.socket.destroy();
    const text = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
    const type = reply.text !== undefined ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
    res.writeHead(reply.status ?? 200, { "Content-Type": type, ...reply.headers });
    if (reply.stall) return void res.write(text.slice(0, Math.max(1, text.length >> 1)));
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fixture.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fixture;
}

/** The key the tests use; it must never show up in an error. */
export const KEY = "test-key-SECRET-7f3a";

/** Asserts that nothing an error exposes mentions the key. */
export function expectNoKey(error: unknown, key = KEY): void {
  const e = error as Error & Record<string, unknown>;
  const shown = [
    String(e),
    e.message,
    e.stack,
    JSON.stringify(e),
    String(e.serviceMessage ?? ""),
    String(e.serviceCode ?? ""),
    JSON.stringify(e.request ?? null),
    e.cause instanceof Error ? `${e.cause.message}\n${e.cause.stack}` : String(e.cause ?? ""),
  ].join("\n");
  expect(shown).not.toContain(key);
}

/** Awaits a rejection and returns the error (so tests can inspect it). */
export async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

/** `n` valid CUIs (control digit right), from base `from` on. */
export function cuis(n: number, from = 1000): number[] {
  return Array.from({ length: n }, (_, i) => withControlDigit(from + i));
}
