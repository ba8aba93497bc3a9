/**
 * The connections of `firma serve`: what a client that is slow on purpose or by accident meets, over
 * HTTP/1.1 and over HTTP/2, and the idle ones closed when the server stops.
 *
 * Served with TLS, the server speaks HTTP/2 and, to a client that does not offer it in ALPN, HTTP/1.1
 * (Node's http2 server with `allowHTTP1`). Node gives that server none of the HTTP/1.1 limits of its
 * http server from the options: they are set here on the server object, where its HTTP/1.1 side reads
 * them (headersTimeout, requestTimeout, keepAliveTimeout, maxHeaderSize and how often the first two
 * are checked). HTTP/2 has limits of its own:
 *  - a header block over `maxHeaderBytes` is answered 431 before any handler, like HTTP/1.1's (Node's
 *    HTTP/2 server announces the limit in its SETTINGS but does not enforce it: `headersTooLarge`,
 *    checked in app.ts's first hook);
 *  - a stream whose request (its headers and body) is not all in within `requestTimeoutMs` is reset
 *    (HTTP/1.1: Node's requestTimeout, 408);
 *  - a connection on which no request has begun within `headersTimeoutMs` of its TLS handshake is
 *    closed, whichever protocol it chose: a client that opens connections and sends nothing, or sends
 *    its first header a byte a second, holds nothing for long (the handshake has its own limit);
 *  - an HTTP/2 session with no traffic is closed after the keep-alive time (Fastify's
 *    `http2SessionTimeout`), as an idle HTTP/1.1 connection is.
 */
import { constants as h2, type Http2Server, type Http2Session, type Http2Stream } from "http2";
import type { Socket } from "net";

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  checkIntervalMs: number;
  maxHeaderBytes: number;
}

/** Set on a connection's socket: clears its "no request yet" timer (read through HTTP/2's socket proxy too). */
const BEGUN = Symbol("firma.requestBegun");

type Server = Http2Server & {
  headersTimeout?: number;
  requestTimeout?: number;
  keepAliveTimeout?: number;
  maxHeaderSize?: number;
  connectionsCheckingInterval?: number;
  closeIdleConnections(): void;
};

/** Whether an HTTP/2 request's header block (names and values, pseudo-headers included, 32 bytes a field as RFC 9113 counts) is over the limit. */
export function headersTooLarge(
  req: { httpVersionMajor: number; rawHeaders: string[] },
  l: Pick<ConnectionLimits, "maxHeaderBytes">,
): boolean {
  if (req.httpVersionMajor !== 2) return false;
  let bytes = 0;
  for (const h of req.rawHeaders) bytes += h.length + 16;
  return bytes > l.maxHeaderBytes;
}

/** The HTTP/2 settings `firma serve` announces: streams at once per connection, and the header block's size. */
export function http2Settings(l: ConnectionLimits): { maxConcurrentStreams: number; maxHeaderListSize: number } {
  // What an add-in asks at once (120: src/engine/credits/lanes.ts) and room for its pane's own requests;
  // few enough to bound one client.
  return { maxConcurrentStreams: 128, maxHeaderListSize: l.maxHeaderBytes };
}

/**
 * Watches the connections of `server` (Node's http server without TLS, its http2 server with it): the limits above, and the
 * closing of idle connections at stop (`closeIdle`, called again and again while the server closes).
 */
export function watchConnections(server: Server, tls: boolean, l: ConnectionLimits): { closeIdle(): void } {
  if (tls) {
    // The HTTP/1.1 side of the http2 server reads these from the server object (not from its options).
    server.headersTimeout = l.headersTimeoutMs;
    server.requestTimeout = l.requestTimeoutMs;
    server.keepAliveTimeout = l.keepAliveTimeoutMs;
    server.maxHeaderSize = l.maxHeaderBytes;
    server.connectionsCheckingInterval = l.checkIntervalMs;
  }

  // A connection that sends nothing at all is no request Node's headersTimeout watches: closed when no
  // request has begun on it after the same time (TLS: once its handshake is done, which has its own limit).
  server.on("request", (req: { socket?: Record<symbol, unknown> }) => {
    const begun = req.socket?.[BEGUN];
    if (typeof begun === "function") begun();
  });
  server.on(tls ? "secureConnection" : "connection", (socket: Socket & { [BEGUN]?: () => void; alpnProtocol?: string | false }) => {
    // HTTP/2's session owns its socket: watched below, as a session.
    if (socket.alpnProtocol === "h2") return;
    const timer = setTimeout(() => socket.destroy(), l.headersTimeoutMs);
    timer.unref();
    socket[BEGUN] = () => clearTimeout(timer);
    socket.once("close", () => clearTimeout(timer));
  });
  /** Each HTTP/2 session, with its streams in progress. */
  const sessions = new Map<Http2Session, number>();
  server.on("session", (session: Http2Session) => {
    sessions.set(session, 0);
    const timer = setTimeout(() => session.destroy(), l.headersTimeoutMs);
    timer.unref();
    session.on("stream", (stream: Http2Stream) => {
      clearTimeout(timer);
      sessions.set(session, (sessions.get(session) ?? 0) + 1);
      stream.once("close", () => sessions.has(session) && sessions.set(session, (sessions.get(session) ?? 1) - 1));
      // The whole request in time (HTTP/1.1: Node's requestTimeout).
      if (stream.readableEnded) return;
      const whole = setTimeout(() => stream.close(h2.NGHTTP2_CANCEL), l.requestTimeoutMs);
      whole.unref();
      stream.once("end", () => clearTimeout(whole));
      stream.once("close", () => clearTimeout(whole));
    });
    session.once("close", () => {
      clearTimeout(timer);
      sessions.delete(session);
    });
  });
  return {
    closeIdle() {
      // HTTP/1.1: the connections between requests (Node's, on both servers).
      server.closeIdleConnections();
      // HTTP/2: a session without a stream now at once; one with streams once they are answered.
      for (const [session, streams] of sessions) {
        if (streams === 0) session.destroy();
        else if (!session.closed) session.close();
      }
    },
  };
}
