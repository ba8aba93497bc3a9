/**
 * The custody mode of `firma serve`: the firm's key stays on the server, people call with personal
 * tokens, and answers are paid once for the whole firm.
 *
 *  - `/v4/…`: the token in X-API-Key is checked first (a value that is not a token at all: 401, without
 *    asking the database; unknown or revoked: 403), then the request is answered from the firm's store
 *    (request-wants.ts), and what it lacks is fetched once for everyone (loader.ts), with one person's credit
 *    for each upstream call. Errors are the relay's JSON shape, `{ error: { code, message } }`, in the
 *    catalogs' words; the answer's X-Credits-Limit and X-Credits-Remaining are the PERSON's budget and
 *    what is left of it this month, so the pane's meter shows her figures; X-Plan is the service's.
 *  - `GET /firm/me` (the token as above): `{ name, budget, spent, remaining, month }`, the person's own
 *    figures for the pane, never another's.
 *  - `/firm/watch…` (the token as above, the same rate limit): her watch lists, for the pane (watch-routes.ts).
 *  - `GET /metrics`: Prometheus' text (metrics.ts).
 * Every /v4 request of a known person leaves one line in the audit trail. A person's requests past the
 * rate limit (@fastify/rate-limit, keyed by her token's hash) get a 429 `rate_limited` before the
 * database is asked, so an add-in stuck in a loop costs no credit; and a person has only a few requests
 * worked on at once (fair-gate.ts), so that an add-in's many requests wait behind her own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bucharestMonth } from "../../engine/credits/bucharest-time";
import { t, type Lang, type MessageKey } from "../../shared/messages/node";
import { MAX_QUERY_BYTES } from "../relay";
import { accepts, candidates, parseRequest, render, wantKey, type Held, type Parsed, type Refusal } from "./request-wants";
import { FirmLoader, type Requester } from "./loader";
import { Metrics } from "./metrics";
import type { AnswerSource, FirmStore, FirmUser } from "./firm-store";
import { hashToken, isTokenFormat } from "./tokens";
import { CallFailure, upstream } from "./upstream";
import { FirmStoreError } from "./firm-store";
import { storeCallFailure, WriteBehind } from "./store-faults";
import type { AfterCheck } from "./watch-check";
import type { WatchScheduler } from "./watch-scheduler";
import { watchScheduler } from "./watch-serve";
import { UpstreamGovernor } from "../upstream-governor";
import type { UpstreamGet } from "../upstream-get";
import { watchRoutes } from "./watch-routes";
import { FairGate, type Turn } from "./fair-gate";

export interface CustodyOptions {
  store: FirmStore;
  /** The service's base address. */
  upstream: () => string;
  /** The firm's key: sent to the service only, in X-API-Key. */
  key: string;
  /** --max-credits-per-day; null: none. */
  maxCreditsPerDay: number | null;
  /** Per-call limit towards the service. @default 30000 */
  timeoutMs?: number;
  /** The most calls at the service at once; fewer while it shows signs of load (../upstream-governor.ts). @default 128 */
  upstreamConcurrency?: number;
  /** Requests of one person the server works on at once; hers past them wait behind her own (fair-gate.ts). @default FAIR_PLACES */
  fairPlaces?: number;
  /** The window that gathers concurrent requests into one upstream batch. @default 40 */
  windowMs?: number;
  /** The GET to the service (../upstream-get.ts). */
  get?: UpstreamGet;
  now?: () => number;
  /**
   * One batch queue per kind across the instances on PostgreSQL (shared-queue.ts): the partial batches
   * of all the instances filled together. `FIRMA_SHARED_QUEUE=0` turns it off. @default true
   */
  shareQueue?: boolean;
  /** The language of the error messages. @default "ro" */
  lang?: Lang;
  /**
   * Requests a person (a token; a client without one: an address) may make in `windowMs` on /v4 and
   * /firm/me, counted before anything else is done: past it, a 429 naming the limit, with Retry-After.
   * null: no limit. @default { max: 1500, windowMs: 10000 }
   */
  rateLimit?: { max: number; windowMs: number } | null;
  /** The counters /metrics shows, when the caller counts in them too (the watch's deliverer). @default a new Metrics */
  metrics?: Metrics;
  /** The watch lists' scheduled checks (watch-scheduler.ts); null: none (the tests of requests). */
  watch?: WatchOptions | null;
}

export interface WatchOptions {
  /** `--watch-schedule`: the schedule of a list without one. */
  defaultSchedule: string;
  /** `--watch-budget`: the firm's lists' credits a month; null: as set before (none at first). */
  budget: number | null;
  /** How long a check's lease holds unrenewed: a killed instance's check is taken over after it. @default 30000 */
  leaseMs?: number;
  /** After each committed check (the alerts' delivery). */
  afterCheck?: AfterCheck;
}

/** The default per-person limit: 150 requests a second, counted over 10 s (an add-in refreshing from the store stays far below it). */
export const RATE_LIMIT = { max: 1500, windowMs: 10_000 };
/**
 * Requests of one person the server works on at once (fair-gate.ts): the server answers from its store
 * in well under a millisecond, so four keep anyone's refresh from the store at full speed, while one
 * add-in with 120 requests on their way has four turns for each of another person's one, not 120.
 */
export const FAIR_PLACES = 4;

export interface Custody {
  metrics: Metrics;
  loader: FirmLoader;
  /** The watch lists' scheduler (null without `watch`). */
  watch: WatchScheduler | null;
  governor: UpstreamGovernor;
}

/** What each failure of a call tells the person. */
const FAILURES: Record<string, MessageKey> = {
  budget_exhausted: "custody.budgetExhausted",
  day_limit: "custody.dayLimit",
  plan_stopped: "custody.planStopped",
  firm_key_refused: "custody.firmKeyRefused",
  plan_history: "custody.planHistory",
  upstream_timeout: "custody.upstreamTimeout",
  upstream_unreachable: "custody.upstreamUnreachable",
  upstream_broken: "custody.upstreamBroken",
  upstream_too_large: "custody.upstreamTooLarge",
  upstream_failed: "custody.upstreamFailed",
  upstream_shape: "custody.upstreamShape",
  upstream_not_configured: "custody.upstreamNotConfigured",
  store_unavailable: "custody.storeUnavailable",
  store_read_only: "custody.storeReadOnly",
  store_full: "custody.storeFull",
  store_upgraded: "custody.storeUpgraded",
};

interface Usage {
  budget: number;
  spent: number;
  month: string;
}

/** An answer as the handlers make it (watch-routes.ts makes them too). */
export interface Outcome {
  status: number;
  body?: unknown;
  /** The body's JSON text when it is already written (request-wants.ts render). */
  text?: string | Buffer;
  source: AnswerSource;
  headers?: Record<string, string>;
}

const json = (
  status: number,
  code: string,
  message: string,
  source: AnswerSource = "refused",
  headers?: Record<string, string>,
): Outcome => ({
  status,
  body: { error: { code, message } },
  source,
  headers,
});

function send(reply: FastifyReply, o: Outcome): FastifyReply {
  reply.code(o.status).header("content-type", "application/json; charset=utf-8").header("cache-control", "no-store");
  for (const [k, v] of Object.entries(o.headers ?? {})) reply.header(k, v);
  return reply.send(o.text ?? JSON.stringify(o.body));
}

/** Each request's token hash, worked out once (the rate limit and the person both need it). */
const hashes = new WeakMap<FastifyRequest, string>();

function tokenHash(req: FastifyRequest, token: string): string {
  let h = hashes.get(req);
  if (h === undefined) hashes.set(req, (h = hashToken(token)));
  return h;
}

export function registerCustody(app: FastifyInstance, o: CustodyOptions): Custody {
  const lang = o.lang ?? "ro";
  const now = o.now ?? Date.now;
  const store = o.store;
  const metrics = o.metrics ?? new Metrics();
  let upgradedSaid = false;
  /** The database failing: logged; a newer FIRMA's migration once, as the line that says this instance stopped writing. */
  const storeError = (e: unknown, what = "firm store write failed") => {
    if (e instanceof FirmStoreError && e.code === "newer_schema") {
      if (!upgradedSaid) app.log.fatal({ err: { message: e.message } }, e.message);
      upgradedSaid = true;
      return;
    }
    app.log.error({ err: { message: (e as Error)?.message } }, what);
  };
  const writes = new WriteBehind({
    onError: (e, what, kept) =>
      storeError(e, kept ? `firm store: ${what} not written yet; kept and tried again` : `firm store: ${what} lost`),
  });
  const governor = new UpstreamGovernor({ ceiling: o.upstreamConcurrency });
  const gate = new FairGate(o.fairPlaces ?? FAIR_PLACES);
  metrics.governor = governor;
  metrics.gate = gate;
  const firmUpstream = upstream({ base: o.upstream, key: o.key, timeoutMs: o.timeoutMs ?? 30_000, get: o.get, governor });
  const loader = new FirmLoader({
    store,
    upstream: firmUpstream,
    gate: (task) => governor.run(task),
    maxPerDay: o.maxCreditsPerDay,
    windowMs: o.windowMs,
    // A claim outlives the longest call (the upstream timeout), so a slow call is not paid twice.
    claimMs: (o.timeoutMs ?? 30_000) + 30_000,
    now,
    onCall: (charged) => metrics.call(charged),
    onStoreError: (e) => storeError(e),
    writes,
    // Several instances on one PostgreSQL: one batch queue per kind between them (shared-queue.ts).
    shareQueue: (o.shareQueue ?? true) && store.engine === "postgres",
  });
  const watch = o.watch ? watchScheduler(app, o, o.watch, firmUpstream, loader, metrics, now, storeError) : null;
  app.addHook("onClose", async () => {
    await watch?.close();
    loader.close();
    // What waits for the database: a little longer, then said (store-faults.ts).
    if (!(await writes.drain(10_000))) app.log.error(`firm store: ${writes.pending} writes lost at close`);
    writes.close();
  });
  const limit = o.rateLimit === undefined ? RATE_LIMIT : o.rateLimit;
  const rateLimit = limit
    ? {
        max: limit.max,
        timeWindow: limit.windowMs,
        // The token's hash (the token itself is kept nowhere); a client without one, by its address.
        keyGenerator: (req: FastifyRequest) => {
          const token = req.headers["x-api-key"];
          return isTokenFormat(token) ? `t:${tokenHash(req, token)}` : `a:${req.ip}`;
        },
        errorResponseBuilder: (_req: FastifyRequest, c: { max: number; ttl: number }) =>
          Object.assign(new Error("rate limited"), {
            statusCode: 429,
            outcome: json(
              429,
              "rate_limited",
              t(lang, "custody.rateLimited", {
                max: c.max,
                seconds: Math.round(limit.windowMs / 1000),
                after: Math.max(1, Math.ceil(c.ttl / 1000)),
              }),
            ),
          }),
      }
    : false;
  // The limiter's 429 and Fastify's 413 in the API's shape and the user's words; anything else as Fastify says it.
  app.setErrorHandler((err: Error & { statusCode?: number; outcome?: Outcome }, _req, reply) => {
    if (err.outcome) return send(reply, err.outcome);
    if (err.statusCode === 413) return send(reply, json(413, "body_too_large", t(lang, "custody.bodyTooLarge", { max: 1024 })));
    return reply.send(err);
  });
  let serial = 0;
  const refusal = (r: Refusal): Outcome => json(r.status, r.code, t(lang, r.key, r.params));
  /** The database failing, as the person is told: 503, Retry-After, what to do. */
  const storeOutcome = (e: unknown): Outcome => {
    const f = storeCallFailure(e);
    return json(f.status, f.code, t(lang, FAILURES[f.code]), "refused", { "retry-after": String((f.retryAfterMs ?? 5000) / 1000) });
  };

  /**
   * The person a request's token belongs to, with her budget and spend this month (one query), or the
   * refusal: 401 (no token, not a token: no database asked), 403.
   */
  async function person(req: FastifyRequest): Promise<{ user: FirmUser; usage: Usage } | Outcome> {
    const token = req.headers["x-api-key"];
    if (token === undefined || token === "") return json(401, "missing_token", t(lang, "custody.tokenMissing"));
    if (!isTokenFormat(token)) return json(401, "token_format", t(lang, "custody.tokenFormat"));
    const month = bucharestMonth(now());
    let user: (FirmUser & { spent?: number }) | null;
    try {
      user = await store.userByTokenHash(tokenHash(req, token), now(), month);
    } catch (e) {
      storeError(e, "firm store: token not checked");
      return storeOutcome(e);
    }
    if (!user) return json(403, "token_refused", t(lang, "custody.tokenRefused"));
    return { user, usage: { budget: user.budget, spent: user.spent ?? 0, month } };
  }

  /** The person's budget and spend this month (null when the database cannot say). */
  async function usage(user: string): Promise<Usage | null> {
    const month = bucharestMonth(now());
    const u = await store.usageOf(user, month).catch(() => null);
    return u && { ...u, month };
  }

  /**
   * The answers to a parsed request, one for each of its wants in order: the store's, then what the
   * loader fetches for `r`. Each want's own key is read first (most often from memory: hot-answers.ts);
   * only the wants it misses are looked for under the other keys that may answer them
   * (request-wants.ts `candidates`).
   */
  async function answers(p: Parsed, r: Requester, turn: Turn): Promise<(Held | undefined)[]> {
    const keys = p.wants.map(wantKey);
    const held: (Held | undefined)[] = new Array(keys.length);
    let missing: number[] = [];
    try {
      const own = await store.answersInOrder(keys, now());
      for (let i = 0; i < keys.length; i++) {
        const a = own[i];
        if (a === undefined) missing.push(i);
        else held[i] = a;
      }
      if (missing.length > 0) {
        const others = await store.getAnswers([...new Set(missing.flatMap((i) => candidates(p.wants[i]).slice(1)))], now());
        const ignored = loader.includeIgnored === true;
        missing = missing.filter((i) => {
          const w = p.wants[i];
          const hit = candidates(w)
            .slice(1)
            .find((k) => others.has(k) && accepts(w, k, others.get(k)!.body, ignored));
          if (hit === undefined) return true;
          held[i] = others.get(hit)!;
          if (w.kind === "ident" && hit.startsWith("ident:")) metrics.otherInclude(1);
          return false;
        });
      }
    } catch (e) {
      throw storeCallFailure(e);
    }
    metrics.hits(keys.length - missing.length);
    if (missing.length === 0) return held;
    let fetched: Map<string, unknown>;
    const wanted = missing.map((i) => p.wants[i]);
    // While the service is asked, her place goes to her next request (fair-gate.ts).
    try {
      fetched = await turn.pause(loader.load(wanted, r));
    } catch (e) {
      // Joined to a call whose other people had no budget left: once more, as this person's own call.
      if (!(e instanceof CallFailure && e.code === "budget_exhausted")) throw e;
      fetched = await turn.pause(loader.load(wanted, r));
    }
    for (const i of missing) held[i] = { body: fetched.get(keys[i]) };
    return held;
  }

  async function failure(e: unknown, user: string): Promise<Outcome> {
    if (!(e instanceof CallFailure)) {
      app.log.error({ err: { message: (e as Error)?.message } }, "custody request failed");
      return json(500, "internal", t(lang, "custody.internal"));
    }
    const params: Record<string, string | number> = { ...e.params };
    if (e.code === "budget_exhausted") Object.assign(params, (await usage(user)) ?? { budget: "?", spent: "?", month: "" });
    if (typeof params.until === "number")
      params.until = new Date(params.until).toLocaleString(lang === "en" ? "en-GB" : "ro-RO", { timeZone: "Europe/Bucharest" });
    const headers = e.retryAfterMs !== null ? { "retry-after": String(Math.max(1, Math.ceil(e.retryAfterMs / 1000))) } : undefined;
    const key = FAILURES[e.code];
    const message = e.serviceMessage ?? (key ? t(lang, key, params) : t(lang, "custody.serviceRefused", { status: e.status }));
    return json(e.status, e.code, message, "refused", headers);
  }

  async function handle(req: FastifyRequest, reply: FastifyReply, path: string, query: string): Promise<FastifyReply> {
    const started = performance.now();
    // Upgraded under this instance: it answers nothing it could not record (its /healthz says 503 too).
    const who = upgradedSaid ? storeOutcome(new FirmStoreError("newer_schema", "newer schema")) : await person(req);
    if (!("user" in who)) {
      metrics.request("refused", (performance.now() - started) / 1000);
      return send(reply, who);
    }
    const name = who.user.name;
    // A few of each person's requests at once: one add-in's many requests wait behind her own (fair-gate.ts).
    const turn = await gate.enter(name);
    try {
      return await work(reply, path, query, who, turn, started);
    } finally {
      turn.leave();
    }
  }

  async function work(
    reply: FastifyReply,
    path: string,
    query: string,
    who: { user: FirmUser; usage: Usage },
    turn: Turn,
    started: number,
  ): Promise<FastifyReply> {
    const name = who.user.name;
    const r: Requester = { id: ++serial, user: name, credits: 0, fetched: false };
    const parsed = parseRequest(path, query);
    let out: Outcome;
    let cuis: number[] = [];
    if (parsed === null) out = json(404, "not_found", t(lang, "custody.notApiPath"));
    else if (!("wants" in parsed)) out = refusal(parsed);
    else {
      cuis = parsed.cuis;
      try {
        const rendered = render(parsed, await answers(parsed, r, turn));
        const source = r.fetched ? "upstream" : "store";
        out = "code" in rendered ? { ...refusal(rendered), source } : { ...rendered, source };
      } catch (e) {
        out = await failure(e, name);
      }
    }
    // Answered from the store: her figures as read with her token; after an upstream call, read again.
    const u = r.fetched ? await usage(name) : who.usage;
    const headers: Record<string, string> = { ...out.headers };
    if (u) {
      headers["x-credits-limit"] = String(u.budget);
      headers["x-credits-remaining"] = String(Math.max(0, u.budget - u.spent));
      headers["x-credits-scope"] = "firm-budget"; // the person's budget, not the plan's credits (src/api/http.ts readQuota)
    }
    if (loader.plan) headers["x-plan"] = loader.plan;
    const line = { at: now(), user: name, endpoint: path, cuis, source: out.source, credits: r.credits, status: out.status };
    await writes.write("an audit line", () => store.audit(line));
    metrics.request(out.source, (performance.now() - started) / 1000);
    return send(reply, { ...out, headers });
  }

  app.route({
    method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    url: "/v4/*",
    config: { rateLimit },
    handler: async (req, reply) => {
      const raw = req.raw.url ?? "";
      const q = raw.indexOf("?");
      const path = q < 0 ? raw : raw.slice(0, q);
      const query = q < 0 ? "" : raw.slice(q + 1);
      if (req.method !== "GET")
        return send(reply, json(405, "method_not_allowed", t(lang, "custody.methodNotAllowed"), "refused", { allow: "GET" }));
      if (Buffer.byteLength(query) + 1 > MAX_QUERY_BYTES)
        return send(reply, json(414, "query_too_long", t(lang, "custody.queryTooLong", { max: MAX_QUERY_BYTES })));
      return handle(req, reply, path, query);
    },
  });

  app.get("/firm/me", { config: { rateLimit } }, async (req, reply) => {
    const who = await person(req);
    if (!("user" in who)) return send(reply, who);
    const u = who.usage;
    const body = { name: who.user.name, budget: u.budget, spent: u.spent, remaining: Math.max(0, u.budget - u.spent), month: u.month };
    return send(reply, { status: 200, body, source: "store" });
  });

  void app.register(watchRoutes, { store, lang, now, rateLimit, person, send, defaultSchedule: o.watch?.defaultSchedule });

  app.get("/metrics", async (_req, reply) =>
    reply.header("content-type", "text/plain; version=0.0.4; charset=utf-8").header("cache-control", "no-store").send(metrics.text()),
  );
  return { metrics, loader, watch, governor };
}
