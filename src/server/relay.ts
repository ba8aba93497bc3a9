/**
 * The same-origin relay: `GET /v4/…` from the add-in goes to the upstream service with the user's
 * X-API-Key, and its answer comes back with its status, body and the headers the client reads. An
 * add-in served by `firma serve` calls its own origin, so the upstream service needs no CORS at all
 * (https://learn.microsoft.com/office/dev/add-ins/develop/addressing-same-origin-policy-limitations:
 * "prefer CORS or a server-side proxy").
 *
 * Only the API's GET paths are relayed; hop-by-hop headers, cookies and every other header stay
 * behind, both ways. A query is at most MAX_QUERY_BYTES, an answer at most MAX_ANSWER_BYTES
 * (upstream-get.ts). An upstream that does not answer in time is 504; one that cannot be reached, or
 * whose answer is too large, broken off or unreadable, 502; each with a JSON error body the client
 * reads like the service's own. The calls at the service at once are governed (upstream-governor.ts):
 * an add-in over HTTP/2 asks many things at once, the service sees what it bears.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { serviceDeadline } from "../api/service-timer";
import { verdictOf, type UpstreamGovernor, type Verdict } from "./upstream-governor";
import { getFailureCode, upstreamGet, type GetAnswer, type GetFailureCode, type UpstreamGet } from "./upstream-get";

/** The API v4's paths (../shared/api: every endpoint is a GET). */
const API_PATH =
  /^\/v4\/(?:firme\/(?:search|batch|batch\/financiar|\d{1,10}|\d{1,10}\/financiar)|topuri|topuri\/[A-Za-z0-9._~-]{1,200}|nomenclatoare\/judete)$/;

/** A batch of 100 CUIs with `include` is about 1.3 KB; four times that is plenty. */
export const MAX_QUERY_BYTES = 4_096;

/** What the person is told of a GET that failed (upstream-get.ts getFailureCode). */
const GET_FAILED: Record<GetFailureCode, string> = {
  upstream_too_large: "The service's answer is too large.",
  upstream_shape: "The service's answer could not be read.",
  upstream_broken: "The service's answer broke off.",
  upstream_unreachable: "The service cannot be reached.",
};

/** What the client reads of an answer (src/api/http.ts): the body's type, the plan and credits, Retry-After. */
const PASSED_HEADERS = ["content-type", "x-plan", "x-credits-remaining", "x-credits-limit", "x-credits-used", "retry-after"];

export interface RelayOptions {
  /** The upstream service's base address (its paths begin with /v4). */
  upstream: () => string;
  /** Per-request time limit towards the upstream. @default 30000 */
  timeoutMs?: number;
  /** The GET to the service. @default upstreamGet (upstream-get.ts), answers up to its MAX_ANSWER_BYTES */
  get?: UpstreamGet;
  /** The calls at the service at once (../upstream-governor.ts); none: as many as the clients send. */
  governor?: UpstreamGovernor;
}

function fail(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply
    .code(status)
    .header("content-type", "application/json; charset=utf-8")
    .send(JSON.stringify({ error: { code, message } }));
}

type Relayed = { res: GetAnswer; verdict: Verdict } | { status: number; code: string; message: string; verdict: Verdict };

/** One call to the service and its whole answer, or why there is none. */
async function relayed(get: UpstreamGet, url: string, headers: Record<string, string>, timeoutMs: number): Promise<Relayed> {
  // The service's time, not this thread's (src/api/service-timer.ts): a busy server must not time
  // out an answer that came in time (the add-in would try again, and pay again).
  const deadline = serviceDeadline(timeoutMs);
  try {
    const res = await get(url, headers, deadline.signal);
    return { res, verdict: verdictOf(res.status) };
  } catch (e) {
    if (deadline.timer.expired)
      return { status: 504, code: "upstream_timeout", message: `The service did not answer within ${timeoutMs} ms.`, verdict: "overload" };
    const code = getFailureCode(e);
    return { status: 502, code, message: GET_FAILED[code], verdict: "neutral" };
  } finally {
    deadline.timer.stop();
  }
}

export function registerRelay(app: FastifyInstance, o: RelayOptions): void {
  const timeoutMs = o.timeoutMs ?? 30_000;
  const get = o.get ?? upstreamGet();
  app.route({
    method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    url: "/v4/*",
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const raw = req.raw.url ?? "";
      const q = raw.indexOf("?");
      const path = q < 0 ? raw : raw.slice(0, q);
      const query = q < 0 ? "" : raw.slice(q);
      if (req.method !== "GET") return fail(reply.header("allow", "GET"), 405, "method_not_allowed", "Only GET is relayed.");
      if (!API_PATH.test(path)) return fail(reply, 404, "not_found", "Not an API v4 path.");
      if (Buffer.byteLength(query) > MAX_QUERY_BYTES)
        return fail(reply, 414, "query_too_long", `The query is over ${MAX_QUERY_BYTES} bytes.`);
      const headers: Record<string, string> = { accept: "application/json" };
      const key = req.headers["x-api-key"];
      if (typeof key === "string") headers["x-api-key"] = key;
      const base = o.upstream().replace(/\/+$/, "");
      if (!base) return fail(reply, 502, "upstream_not_configured", "firma serve has no upstream service: start it with --upstream.");
      // At most the governor's calls at once, each held until its answer is read (upstream-governor.ts).
      const call = () => relayed(get, `${base}${path}${query}`, headers, timeoutMs);
      const g = o.governor;
      const got = g ? await g.run(() => g.observe(call, (r) => ("value" in r ? r.value.verdict : "neutral"))) : await call();
      if ("code" in got) return fail(reply, got.status, got.code, got.message);
      const { res } = got;
      reply.code(res.status);
      for (const h of PASSED_HEADERS) {
        const v = res.header(h);
        if (v !== null) reply.header(h, v);
      }
      reply.header("cache-control", "no-store");
      return reply.send(res.body);
    },
  });
}
