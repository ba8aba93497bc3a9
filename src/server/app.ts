/**
 * `firma serve`'s application: the built add-in (dist/) as static files, its manifest generated for
 * the address users reach it at, the same-origin relay of the API (relay.ts) — or, in custody mode,
 * the firm's server (firm/custody.ts: the firm's key kept here, personal tokens, answers paid once,
 * /firm/me, /metrics); either way the calls at the upstream at once are governed (upstream-governor.ts) — and /healthz, which in custody mode also asks the database (503 when it does
 * not answer). Fastify, with @fastify/static (and @fastify/rate-limit in custody mode); the request
 * log never holds a key or a token (it logs no headers, and both come in a header only).
 *
 * A client that is slow on purpose or by accident does not hold the server: its request's headers must
 * arrive within `headersTimeoutMs`, the whole request within `requestTimeoutMs` (checked every
 * `checkIntervalMs`), a connection silent both ways is closed after `connectionTimeoutMs` (longer than
 * an upstream call can take), an idle kept-alive one after `keepAliveTimeoutMs`; headers over
 * `maxHeaderBytes` are refused by Node (431) and a body over 1 KB by Fastify (413; the pane's watch lists
 * take 200 KB: firm/watch-routes.ts), before any handler.
 * With a certificate it speaks HTTP/2, and HTTP/1.1 to clients that do not offer HTTP/2; the same
 * limits hold over both (connections.ts).
 */
import { existsSync, readFileSync } from "fs";
import { join } from "path";
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import fastifyStatic from "@fastify/static";
import fastifyRateLimit from "@fastify/rate-limit";
import { registerRelay } from "./relay";
import { UpstreamGovernor } from "./upstream-governor";
import { t } from "../shared/messages/node";
import { registerCustody, type CustodyOptions } from "./firm/custody";
import { headersTooLarge, http2Settings, watchConnections, type ConnectionLimits } from "./connections";

const CLOSE_IDLE = "firmaCloseIdle";

/** Closes the connections of `app` that carry no request now (called again and again while it stops). */
export function closeIdleConnections(app: FastifyInstance): void {
  (app as unknown as Record<string, () => void>)[CLOSE_IDLE]();
}

/** What the build wrote beside the add-in (webpack.config.js): the address it was built for. */
export interface BuildInfo {
  addinUrl: string;
  /** The service the add-in calls directly; "" when it calls its own origin (this relay). */
  serviceUrl: string;
  version: string;
}

export interface AppOptions {
  /** The built add-in (dist/, with manifest.xml and firma-build.json). */
  dist: string;
  /** The address users reach the add-in at (https://…/), which the manifest gets (read when asked: it may be known only once listening). */
  publicUrl: string | (() => string);
  /** The upstream service's base address. */
  upstream: string;
  /** Fastify's logger (pino) options, or false. */
  logger?: FastifyServerOptions["logger"];
  /**
   * A line for every request (incoming, completed) in the log; without it only the requests that fail
   * with an error are logged (and everything else the server says). @default true
   */
  accessLog?: boolean;
  /** Behind a reverse proxy: trust its X-Forwarded-* headers. */
  trustProxy?: boolean;
  /** Per-request limit towards the upstream. @default 30000 */
  upstreamTimeoutMs?: number;
  /** The most calls at the upstream at once; fewer while it shows signs of load (upstream-governor.ts). @default 128 */
  upstreamConcurrency?: number;
  https?: { key: Buffer; cert: Buffer } | null;
  /** How long a client may take, and how much it may send (the module's header). */
  limits?: ServerLimits;
  /** Custody mode: the firm's database and key (the upstream and its time limit are the options above). */
  custody?: Omit<CustodyOptions, "upstream" | "timeoutMs" | "upstreamConcurrency"> | null;
}

export interface ServerLimits {
  /** @default 10000 */
  headersTimeoutMs?: number;
  /** @default 30000 */
  requestTimeoutMs?: number;
  /** @default 72000 (Fastify's: longer than the usual load balancer's 60 s) */
  keepAliveTimeoutMs?: number;
  /** @default twice the upstream timeout and 30 s */
  connectionTimeoutMs?: number;
  /** @default 1000 */
  checkIntervalMs?: number;
  /** The request line and headers, in bytes. @default 16384 (Node's) */
  maxHeaderBytes?: number;
}

export function readBuild(dist: string): BuildInfo {
  const file = join(dist, "firma-build.json");
  return JSON.parse(readFileSync(file, "utf8")) as BuildInfo;
}

/** The built manifest with every URL of the build's address moved to `publicUrl`. */
export function manifestFor(dist: string, build: BuildInfo, publicUrl: string): string {
  const xml = readFileSync(join(dist, "manifest.xml"), "utf8");
  return xml.split(build.addinUrl).join(publicUrl);
}

/** The per-request lines left out: a request is logged only when it ends in an error (Fastify's own lines for errors stay). */
class ErrorsOnly extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
  }
}

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  if (!existsSync(join(o.dist, "taskpane.html")) || !existsSync(join(o.dist, "firma-build.json"))) {
    throw Object.assign(new Error(`no built add-in in ${o.dist}`), { code: "FIRMA_NO_DIST" });
  }
  const build = readBuild(o.dist);
  const publicUrl = typeof o.publicUrl === "function" ? o.publicUrl : () => o.publicUrl as string;
  const l = o.limits ?? {};
  const headersTimeout = l.headersTimeoutMs ?? 10_000;
  const limits: ConnectionLimits = {
    headersTimeoutMs: headersTimeout,
    requestTimeoutMs: Math.max(headersTimeout, l.requestTimeoutMs ?? 30_000),
    keepAliveTimeoutMs: l.keepAliveTimeoutMs ?? 72_000,
    checkIntervalMs: l.checkIntervalMs ?? 1000,
    maxHeaderBytes: l.maxHeaderBytes ?? 16_384,
  };
  const app = Fastify({
    logger: o.logger ?? false,
    ...(o.accessLog === false ? { logController: new ErrorsOnly() } : {}),
    trustProxy: o.trustProxy ?? false,
    // GET requests carry no body: a small limit for anything else.
    bodyLimit: 1024,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: l.connectionTimeoutMs ?? 2 * (o.upstreamTimeoutMs ?? 30_000) + 30_000,
    // With TLS: HTTP/2, and HTTP/1.1 for a client that does not offer it (ALPN); without: HTTP/1.1.
    ...(o.https
      ? {
          http2: true,
          http2SessionTimeout: limits.keepAliveTimeoutMs,
          https: { allowHTTP1: true, ...o.https, handshakeTimeout: headersTimeout, settings: http2Settings(limits) },
        }
      : {
          // Node's own: checked every connectionsCheckingInterval, for requests still arriving.
          http: { headersTimeout, connectionsCheckingInterval: limits.checkIntervalMs, maxHeaderSize: limits.maxHeaderBytes },
        }),
  } as FastifyServerOptions);
  const connections = watchConnections(app.server as never, !!o.https, limits);
  app.decorate(CLOSE_IDLE, () => connections.closeIdle());

  // What the build wrote for this server is not for the users; an HTTP/2 header block over the limit is
  // refused here, before any other hook or handler (HTTP/1.1's is refused by Node).
  app.addHook("onRequest", async (req, reply) => {
    if (headersTooLarge(req.raw, limits))
      return reply
        .code(431)
        .send({ error: { code: "headers_too_large", message: `The request's headers are over ${limits.maxHeaderBytes} bytes.` } });
    if (req.url.split("?")[0] === "/firma-build.json") return reply.code(404).send({ error: { code: "not_found", message: "Not found." } });
  });
  const store = o.custody?.store;
  app.get("/healthz", async (_req, reply) => {
    reply.header("cache-control", "no-store");
    if (!store) return reply.send({ ok: true, version: build.version });
    try {
      await store.health();
    } catch {
      return reply.code(503).send({
        ok: false,
        version: build.version,
        database: store.engine,
        error: { code: "database_unavailable", message: t(o.custody?.lang ?? "ro", "custody.healthFailed") },
      });
    }
    return reply.send({ ok: true, version: build.version, database: store.engine });
  });
  app.get("/manifest.xml", async (_req, reply) =>
    reply
      .header("content-type", "text/xml; charset=utf-8")
      .header("cache-control", "no-cache")
      .send(manifestFor(o.dist, build, publicUrl())),
  );
  app.get("/", async (_req, reply) => reply.redirect("/taskpane.html"));
  // The per-person limit (custody.ts): its routes say their own; nothing else is limited.
  if (o.custody) await app.register(fastifyRateLimit, { global: false });
  if (o.custody)
    registerCustody(app, {
      ...o.custody,
      upstream: () => o.upstream,
      timeoutMs: o.upstreamTimeoutMs,
      upstreamConcurrency: o.upstreamConcurrency,
    });
  else
    registerRelay(app, {
      upstream: () => o.upstream,
      timeoutMs: o.upstreamTimeoutMs,
      governor: new UpstreamGovernor({ ceiling: o.upstreamConcurrency }),
    });
  await app.register(fastifyStatic, {
    root: o.dist,
    index: false,
    // The pages and the metadata are asked again (their URLs carry the build's hash in the manifest);
    // the scripts are named by the page that loads them with the same hash.
    setHeaders: (reply, path) => {
      reply.header("cache-control", /\.(html|json|xml)$/.test(path) ? "no-cache" : "public, max-age=3600");
      reply.header("x-content-type-options", "nosniff");
    },
  });
  return app;
}
