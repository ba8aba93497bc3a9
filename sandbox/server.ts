/**
 * The sandbox: a plain Node HTTP server that plays the Company Data Service API v4 on loopback,
 * with credit accounting, CORS, answer variants, latency and fault injection, and test controls.
 * See README.md.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from "http";
import { AddressInfo } from "net";
import { answer, EndpointName, endpointOf, foreignItem } from "./api";
import { latestYearAt } from "./clock";
import { defaultConfig, mergeConfig, resolveFaults, SandboxConfig } from "./config";
import { control } from "./controls";
import { error, render, Rendered, Result } from "./envelope";
import { FaultState, Forger } from "./faults";
import { RequestLog, RequestLogEntry } from "./log";
import { Accounts, Plan, planOfKey, Usage } from "./plans";
import { cuiAt } from "./space";

export type { SandboxConfig, FaultConfig, EnvelopeVariant } from "./config";
export type { RequestLogEntry } from "./log";
export type { Usage, PlanName } from "./plans";

export interface SandboxOptions extends Partial<SandboxConfig> {
  /** 0 = any free port. @default 3001 */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** The sandbox's clock (ms since the epoch), for tests of days and months. @default Date.now */
  clock?: () => number;
}

export interface Sandbox {
  /** "http://127.0.0.1:PORT", without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The live settings: change fields directly, or assign a new object. */
  config: SandboxConfig;
  usage(key: string): Usage;
  /** Forgets one key's counters, or all counters (and restarts the fault stream). */
  reset(key?: string): void;
  /** The last 50,000 /v4 calls, oldest first (a copy). */
  readonly requests: RequestLogEntry[];
  /** /v4 calls in progress now, and the most at once since the start or the last reset() without a key. */
  readonly concurrency: { now: number; peak: number };
  close(): Promise<void>;
}

/**
 * CORS as the real service must answer the add-in (its pages run in a browser: Fetch standard, CORS
 * protocol): every origin, and every header the client reads exposed — the plan and credits (O23)
 * and Retry-After (the stop after credits spent); a preflight allows the X-API-Key header.
 */
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-Plan, X-Credits-Remaining, X-Credits-Limit, Retry-After",
};
const PREFLIGHT = {
  "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "X-API-Key, Content-Type",
  "Access-Control-Max-Age": "600",
};

/** Pieces a dripped body is cut into. */
const DRIP_PIECES = 10;

function injectedError(status: number, write: (r: Result) => Rendered): Rendered {
  if (status === 502) {
    return {
      status,
      contentType: "text/html; charset=utf-8",
      body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
    };
  }
  return write(error(status, status === 503 ? "unavailable" : "server_error", "Eroare internă (simulată). / Internal error (injected)."));
}

type Item = Record<string, unknown>;

/**
 * The forger of a batch call's stranger and conflicting items: real companies of the dataset, never
 * one the call asked for (nor, for a conflict, the item's own), with data that differs from the item's.
 * Each item it makes is added to `made`, so that the log can say how many forged items an answer held.
 */
function forger(query: URLSearchParams, latestYear: number, made: Set<Item>): Forger<Item> {
  const asked = new Set(
    (query.get("cui") ?? "")
      .split(",")
      .map((e) => Number(/\d+/.exec(e)?.[0] ?? NaN))
      .filter((c) => Number.isFinite(c)),
  );
  const pick = (fraction: number, avoid: number, make: (cui: number) => Item | null): Item | null => {
    // A few neighbours of the picked point: the first may have no filing for the year, or be the avoided CUI.
    for (let i = 0; i < 20; i++) {
      const cui = cuiAt((fraction + i * 0.0137) % 1);
      if (asked.has(cui) || cui === avoid) continue;
      const item = make(cui);
      if (item) {
        made.add(item);
        return item;
      }
    }
    return null;
  };
  return {
    stranger: (template, fraction) => pick(fraction, -1, (cui) => foreignItem(template, cui, latestYear)),
    conflict: (item, fraction) =>
      pick(fraction, item.cui as number, (cui) => {
        const other = foreignItem(item, cui, latestYear);
        if (!other) return null;
        const forged = { ...other, cui: item.cui, ...("an" in item ? { an: item.an } : {}) };
        return JSON.stringify(forged) === JSON.stringify(item) ? null : forged;
      }),
  };
}

function cuiCount(endpoint: EndpointName | null, query: URLSearchParams): number {
  if (endpoint === "company" || endpoint === "financial") return 1;
  if (endpoint === "batch" || endpoint === "batchFinancial") {
    return (query.get("cui") ?? "").split(",").filter((e) => e.trim() !== "").length;
  }
  return 0;
}

class SandboxServer implements Sandbox {
  config: SandboxConfig;
  readonly accounts: Accounts;
  readonly log = new RequestLog();
  private readonly faults = new FaultState();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly concurrency = { now: 0, peak: 0 };
  port = 0;
  url = "";

  constructor(
    private readonly server: Server,
    config: SandboxConfig,
    private readonly clock: () => number,
  ) {
    this.config = config;
    this.accounts = new Accounts(clock);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8", ...CORS });
        }
        res.end(`sandbox failure: ${e instanceof Error ? e.message : String(e)}`);
      });
    });
  }

  usage(key: string): Usage {
    return this.accounts.usage(key);
  }

  reset(key?: string): void {
    this.accounts.reset(key);
    if (key === undefined) {
      this.faults.restart();
      this.concurrency.peak = this.concurrency.now;
    }
  }

  get requests(): RequestLogEntry[] {
    return this.log.list();
  }

  close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const cors = this.config.cors ? CORS : {};
    if (req.method === "OPTIONS") {
      if (!this.config.cors) {
        res.writeHead(405, { Allow: "GET" });
        res.end();
        return;
      }
      const pna =
        req.headers["access-control-request-private-network"] === "true" ? { "Access-Control-Allow-Private-Network": "true" } : {};
      res.writeHead(204, { ...CORS, ...PREFLIGHT, ...pna });
      res.end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://sandbox");
    if (url.pathname === "/__sandbox" || url.pathname.startsWith("/__sandbox/")) {
      const out = await control(req, url, this);
      res.writeHead(out.status, { "Content-Type": "application/json; charset=utf-8", ...cors });
      res.end(JSON.stringify(out.body));
      return;
    }
    if (url.pathname !== "/v4" && !url.pathname.startsWith("/v4/")) {
      res.writeHead(404, { "Content-Type": "application/json; charset=utf-8", ...cors });
      res.end(
        JSON.stringify({
          error: {
            code: "not_found",
            message: "The service lives under /v4; controls under /__sandbox/.",
          },
        }),
      );
      return;
    }
    const c = this.concurrency;
    c.peak = Math.max(c.peak, ++c.now);
    try {
      await this.call(req, res, url, c.now);
    } finally {
      c.now--;
    }
  }

  /** One /v4 call: faults, answer, credit, log, latency, delivery. */
  private async call(req: IncomingMessage, res: ServerResponse, url: URL, atOnce: number): Promise<void> {
    const config = this.config;
    const faults = resolveFaults(config.faults);
    const draw = this.faults.draw(faults);
    const rateLimited = this.faults.rateLimited(faults);
    const header = req.headers["x-api-key"];
    const key = typeof header === "string" && header !== "" ? header : undefined;
    const endpoint = endpointOf(url.pathname);
    const entry: RequestLogEntry = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.search.slice(1),
      status: 0,
      credited: false,
      key: key ?? null,
      cuiCount: cuiCount(endpoint, url.searchParams),
      endpoint,
      at: this.clock(),
    };
    if (draw.reset) {
      entry.fault = "reset";
      this.finish(entry, key, false);
      req.socket.destroy();
      return;
    }

    const write = (r: Result) => render(r, config.envelope);
    let rendered: Rendered;
    let credited = false;
    let plan: Plan | null = null;
    if (faults.busyAbove !== null && atOnce > faults.busyAbove) {
      entry.fault = "busy";
      rendered = write(error(503, "busy", "Prea multe apeluri deodată (simulat). / Too many calls at once (injected)."));
    } else if (draw.errorStatus) {
      entry.fault = "error";
      rendered = injectedError(draw.errorStatus, write);
    } else {
      const outcome = answer(entry.method, url, key, {
        config,
        accounts: this.accounts,
        rateLimited,
      });
      let result = outcome.result;
      plan = outcome.plan;
      if (result.kind === "batch") {
        const made = new Set<Item>();
        result = { ...result, items: this.faults.tamper(result.items, faults, forger(url.searchParams, config.latestYear, made)) };
        if (made.size > 0) entry.forged = made.size;
      }
      if (result.status === 429 && rateLimited) entry.fault = "rateLimit";
      credited = result.status === 200 || (result.kind === "error" && result.code === "not_found");
      rendered = write(result);
    }
    // chargeFailures: a service that charges every call it answers, whatever the answer (but not a
    // refusal of the key or of the budget: 401, 403 and 429 stay free, or a spent key could never stop).
    if (config.chargeFailures && (rendered.status >= 500 || rendered.status === 400)) credited = true;
    if (draw.malformed && rendered.status === 200) {
      entry.fault = "malformed";
      rendered = {
        ...rendered,
        body: rendered.body.slice(0, Math.floor(rendered.body.length / 2)),
      };
      // The service sent (and, if it charges every call, billed) a whole answer; it broke on the way.
      credited = config.chargeFailures;
    }
    entry.status = rendered.status;
    this.finish(entry, key, credited);

    const headers: Record<string, string> = { ...(config.cors ? CORS : {}), "Content-Type": rendered.contentType };
    if (plan && config.creditHeaders) {
      headers["X-Plan"] = plan.name;
      const remaining = this.accounts.remaining(key as string, plan);
      if (remaining !== null) headers["X-Credits-Remaining"] = String(remaining);
    }
    if (rendered.status === 503) headers["Retry-After"] = "1";
    if (rendered.status === 429 && config.retryAfterSeconds !== null) headers["Retry-After"] = String(config.retryAfterSeconds);
    await this.sleep(config.latencyMs + Math.random() * config.jitterMs + draw.spikeMs);
    await this.deliver(res, rendered, headers, faults.dripMs);
  }

  /** Charges or refuses the call and logs it. */
  private finish(entry: RequestLogEntry, key: string | undefined, credited: boolean): void {
    entry.credited = credited;
    if (key !== undefined && planOfKey(key) !== null) {
      if (credited) {
        this.accounts.charge(key);
        this.faults.accept();
      } else {
        this.accounts.refuse(key);
      }
    }
    this.log.add(entry);
  }

  private async deliver(res: ServerResponse, r: Rendered, headers: Record<string, string>, dripMs: number): Promise<void> {
    if (res.destroyed) return;
    const body = Buffer.from(r.body, "utf8");
    res.writeHead(r.status, { ...headers, "Content-Length": String(body.length) });
    if (dripMs <= 0 || body.length < DRIP_PIECES) {
      res.end(body);
      return;
    }
    const size = Math.ceil(body.length / DRIP_PIECES);
    for (let at = 0; at < body.length; at += size) {
      if (at > 0) await this.sleep(dripMs / (DRIP_PIECES - 1));
      if (res.destroyed) return;
      res.write(body.subarray(at, at + size));
    }
    res.end();
  }
}

/** Starts a sandbox; `port: 0` picks a free port. Options are checked like PUT /__sandbox/config. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { port = 3001, host = "127.0.0.1", clock = Date.now, ...settings } = options;
  const merged = mergeConfig(defaultConfig(latestYearAt(clock())), settings);
  if ("errors" in merged) throw new Error(`startSandbox: ${merged.errors.join("; ")}`);
  const server = createServer({ keepAlive: true });
  // An idle kept-alive connection stays open for 30 s, as a service's front does (nginx keeps 75 s),
  // not Node's 5 s: a client's pool (undici lets its own go after about 4 s, on a coarse timer) must
  // not pick a connection this side is closing at that very moment, which no real service makes likely.
  server.keepAliveTimeout = 30_000;
  const sandbox = new SandboxServer(server, merged.config, clock);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  sandbox.port = (server.address() as AddressInfo).port;
  sandbox.url = `http://${host.includes(":") ? `[${host}]` : host}:${sandbox.port}`;
  return sandbox;
}
