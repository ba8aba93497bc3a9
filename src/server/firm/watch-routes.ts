/**
 * The watch lists of the person a token belongs to, for the pane (`firma serve` in custody mode),
 * under `/firm/watch…`: the token in X-API-Key checked exactly as for `/firm/me` (custody.ts `person`;
 * the same rate limit, each route counting its own as /v4 and /firm/me do), JSON in and out, errors
 * in the API's shape (`{ error: { code, message } }`) in the language the pane asks for
 * (Accept-Language ro/en; else the server's).
 *
 *  - `GET /firm/watch`: her lists (name, companies, schedule, cost a month, last check and its outcome)
 *    and, read-only, the firm's lists whose alerts go to her address (`following`);
 *  - `GET /firm/watch/lists/:name`: a list's companies (hers, or one she follows);
 *  - `POST /firm/watch/quote` `{ list, cuis }`: what adding these companies to her list (new, or one of
 *    hers) costs a month and whether it fits her budget, with the arithmetic; nothing written;
 *  - `POST /firm/watch/lists` `{ list, cuis }`: adds them — a new list is HERS (owner: the token's
 *    person, charged to her budget, the server's schedule, no other address); refused with the
 *    arithmetic past her budget, as `firma watch add` (watch-cost.ts budgetArithmetic), nothing written;
 *  - `POST /firm/watch/lists/:name/remove` `{ cuis }`, `DELETE /firm/watch/lists/:name`: companies off
 *    her list, or the list;
 *  - `GET /firm/watch/changes?after=ID`: the changes of her lists and of those she follows committed
 *    after change ID, oldest first, at most CHANGES_PAGE (`more` says there are others).
 * Another person's list, and the firm's, are never changed here (403 `not_yours`); webhooks and
 * `--notify` addresses are the administrator's (`firma watch`), not the pane's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { parseCui } from "../../api/cui";
import { count, t, type Lang } from "../../shared/messages/node";
import type { Outcome } from "./custody";
import type { FirmStore, FirmUser } from "./firm-store";
import { isUserName } from "./tokens";
import { budgetArithmetic, costOf, DEFAULT_SCHEDULE, type CostRange } from "./watch-cost";
import { reasonText } from "./watch-run";
import type { WatchList, WatchLogEntry } from "./watch-store";

export interface WatchRoutesOptions {
  store: FirmStore;
  /** The server's language: the messages' when the request does not ask for ro or en. */
  lang: Lang;
  now: () => number;
  /** The schedule of a list without one (`--watch-schedule`), as shown. @default DEFAULT_SCHEDULE */
  defaultSchedule?: string;
  /** @fastify/rate-limit's route config, the one of /firm/me (false: none). */
  rateLimit: object | false;
  /** The person of a request's token, or the refusal (custody.ts). */
  person(req: FastifyRequest): Promise<{ user: FirmUser } | Outcome>;
  send(reply: FastifyReply, o: Outcome): FastifyReply;
}

/** Companies one request may add or remove (a selection of the pane is refused above it, before sending). */
export const MAX_CUIS = 10_000;
/** A request's body: MAX_CUIS CUIs as JSON, with room to spare (the server's other routes take 1 KB). */
export const BODY_LIMIT = 200_000;
/** Changes one answer of /firm/watch/changes holds at most. */
export const CHANGES_PAGE = 200;
/** Invalid CUIs named in a refusal: the first ones. */
const SHOWN = 10;

const json = (status: number, code: string, message: string): Outcome => ({
  status,
  body: { error: { code, message } },
  source: "refused",
});
const ok = (body: unknown, status = 200): Outcome => ({ status, body, source: "store" });

/** The language the request asks for (the pane sends its own), else the server's. */
function langOf(req: FastifyRequest, fallback: Lang): Lang {
  const asked = String(req.headers["accept-language"] ?? "")
    .trim()
    .toLowerCase();
  if (/^en\b/.test(asked)) return "en";
  if (/^ro\b/.test(asked)) return "ro";
  return fallback;
}

export async function watchRoutes(app: FastifyInstance, o: WatchRoutesOptions): Promise<void> {
  const store = o.store;
  const defaultSchedule = o.defaultSchedule ?? DEFAULT_SCHEDULE;
  const config = { rateLimit: o.rateLimit };

  // The limiter's 429 as custody.ts says it; a body too large, not JSON or not parsed: in the API's shape.
  app.setErrorHandler((err: Error & { statusCode?: number; outcome?: Outcome }, req, reply) => {
    if (err.outcome) return o.send(reply, err.outcome);
    const lang = langOf(req, o.lang);
    if (err.statusCode === 413) return o.send(reply, json(413, "body_too_large", t(lang, "watch.api.bodyTooLarge", { max: BODY_LIMIT })));
    if (err.statusCode === 415 || err.statusCode === 400) return o.send(reply, json(400, "bad_request", t(lang, "watch.api.notJson")));
    return reply.send(err);
  });

  /** The handler's work for the person of the token, or her refusal. */
  const as =
    (work: (user: FirmUser, req: FastifyRequest, lang: Lang) => Promise<Outcome>) => async (req: FastifyRequest, reply: FastifyReply) => {
      const who = await o.person(req);
      if (!("user" in who)) return o.send(reply, who);
      const lang = langOf(req, o.lang);
      let out: Outcome;
      try {
        out = await work(who.user, req, lang);
      } catch (e) {
        app.log.error({ err: { message: (e as Error)?.message } }, "watch request failed");
        out = json(503, "store_unavailable", t(lang, "watch.api.store"));
      }
      return o.send(reply, out);
    };

  /** Her lists and the firm's that alert her address (read-only). */
  async function visible(user: FirmUser): Promise<{ all: WatchList[]; mine: WatchList[]; following: WatchList[] }> {
    const all = await store.watch.lists();
    const email = (await store.watch.emailOf(user.name))?.toLowerCase() ?? null;
    return {
      all,
      mine: all.filter((l) => l.owner === user.name),
      following: email === null ? [] : all.filter((l) => l.owner === null && l.notify.some((a) => a.toLowerCase() === email)),
    };
  }

  /** A list's name from the URL or the body, or its refusal. */
  const listName = (v: unknown, lang: Lang): string | Outcome => {
    if (typeof v !== "string" || v === "") return json(400, "bad_request", t(lang, "watch.api.noList"));
    if (!isUserName(v)) return json(400, "bad_list_name", t(lang, "watch.badName", { name: String(v).slice(0, 80) }));
    return v;
  };

  /** The body's CUIs (each checked as the pane checks them), or the refusal naming the invalid ones. */
  const cuisOf = (body: unknown, lang: Lang): number[] | Outcome => {
    const raw = (body as { cuis?: unknown } | null)?.cuis;
    if (!Array.isArray(raw) || raw.length === 0) return json(400, "bad_request", t(lang, "watch.api.noCuis"));
    if (raw.length > MAX_CUIS) return json(400, "too_many", t(lang, "watch.api.tooMany", { max: MAX_CUIS }));
    const parsed = raw.map((c) => ({ c, p: parseCui(c) }));
    const bad = parsed.filter((x) => !x.p.ok).map((x) => String(x.c).slice(0, 20));
    if (bad.length > 0) return json(400, "bad_cuis", t(lang, "watch.badCuis", { value: bad.slice(0, SHOWN).join(", ") }));
    return [...new Set(parsed.map((x) => (x.p.ok ? x.p.cui : 0)))];
  };

  const notYours = (name: string, lang: Lang) => json(403, "not_yours", t(lang, "watch.api.notYours", { name }));
  const unknown = (name: string, lang: Lang) => json(404, "unknown_list", t(lang, "watch.api.unknown", { name }));

  /**
   * Adding the body's `cuis` to her list `list` (checked as the pane checks them): the list as it is
   * (null: new), the companies after, the cost and the arithmetic; or the refusal.
   */
  async function plan(user: FirmUser, body: unknown, lang: Lang) {
    const name = listName((body as { list?: unknown } | null)?.list, lang);
    if (typeof name !== "string") return name;
    const cuis = cuisOf(body, lang);
    if (!Array.isArray(cuis)) return cuis;
    const now = o.now();
    const all = await store.watch.lists();
    const list = all.find((l) => l.name === name) ?? null;
    if (list && list.owner !== user.name) return notYours(name, lang);
    const had = list ? new Set(await store.watch.members(name)) : new Set<number>();
    const adding = cuis.filter((c) => !had.has(c));
    const companies = had.size + adding.length;
    const cost = costOf(companies, list ?? { schedule: null }, now);
    const budget = budgetArithmetic(all, name, user.name, cost, user.budget, now);
    return { name, cuis, list, had, adding, companies, cost, budget, refusal: budget.fits ? null : overBudget(name, cost, budget, lang) };
  }

  const overBudget = (name: string, cost: CostRange, b: { others: number; total: number; budget: number }, lang: Lang) =>
    t(lang, "watch.api.overBudget", {
      name,
      checks: cost.checksPerMonth,
      perCheck: cost.perCheck.low,
      financial: cost.financial,
      low: count(cost.monthly.low, "credit", lang),
      others: b.others,
      total: b.total,
      budget: b.budget,
    });

  const view = (l: WatchList, last: WatchLogEntry | undefined, mine: boolean, lang: Lang) => {
    const cost = costOf(l.companies, l, o.now()).monthly;
    const reason = typeof last?.detail.reason === "string" ? reasonText(last.detail.reason, lang) : null;
    return {
      name: l.name,
      mine,
      companies: l.companies,
      schedule: l.schedule ?? defaultSchedule,
      scheduleDefault: l.schedule === null,
      cost: { low: cost.low, high: cost.high },
      stopped: l.stoppedAt === null ? null : { at: l.stoppedAt, reason: l.stoppedReason ?? "" },
      lastCheck: last
        ? { at: last.at, outcome: last.kind, changes: Number(last.detail.changes ?? 0), unknown: Number(last.detail.unknown ?? 0), reason }
        : null,
    };
  };

  app.get(
    "/firm/watch",
    { config },
    as(async (user, _req, lang) => {
      const { mine, following } = await visible(user);
      const last = await store.watch.lastChecks();
      return ok({
        owner: user.name,
        budget: user.budget,
        lists: mine.map((l) => view(l, last.get(l.name), true, lang)),
        following: following.map((l) => view(l, last.get(l.name), false, lang)),
      });
    }),
  );

  app.get(
    "/firm/watch/lists/:name",
    { config },
    as(async (user, req, lang) => {
      const name = listName((req.params as { name?: unknown }).name, lang);
      if (typeof name !== "string") return name;
      const { all, mine, following } = await visible(user);
      const l = [...mine, ...following].find((x) => x.name === name);
      if (!l) return all.some((x) => x.name === name) ? notYours(name, lang) : unknown(name, lang);
      const seen = await store.watch.seen(name);
      const cuis = await store.watch.members(name);
      const names: Record<string, string> = {};
      for (const c of cuis) {
        const n = seen.get(c)?.get("denumire");
        if (typeof n === "string") names[c] = n;
      }
      return ok({ name, mine: l.owner === user.name, cuis, names });
    }),
  );

  app.post(
    "/firm/watch/quote",
    { config, bodyLimit: BODY_LIMIT },
    as(async (user, req, lang) => {
      const p = await plan(user, req.body, lang);
      if ("status" in p) return p;
      const { name, cuis } = p;
      return ok({
        list: name,
        exists: p.list !== null,
        companies: p.companies,
        adding: p.adding.length,
        already: cuis.length - p.adding.length,
        cost: p.cost,
        budget: p.budget,
        message: p.refusal,
      });
    }),
  );

  app.post(
    "/firm/watch/lists",
    { config, bodyLimit: BODY_LIMIT },
    as(async (user, req, lang) => {
      const p = await plan(user, req.body, lang);
      if ("status" in p) return p;
      const { name, cuis } = p;
      if (p.refusal !== null) return json(422, "over_budget", p.refusal);
      const now = o.now();
      if (p.list === null) {
        const added = await store.watch.addList({ name, owner: user.name, schedule: null, notify: [], cuis }, now);
        // Taken meanwhile (another request, an administrator): whose it is decides what she is told.
        if (!added) return notYours(name, lang);
      } else if (p.adding.length > 0) {
        await store.watch.updateList(name, { cuis: [...p.had, ...p.adding] }, now);
      }
      return ok({ list: name, created: p.list === null, companies: p.companies, added: p.adding.length, cost: p.cost }, p.list ? 200 : 201);
    }),
  );

  /** Her own list `name`, or the refusal (another's or the firm's: not_yours). */
  async function own(user: FirmUser, raw: unknown, lang: Lang): Promise<string | Outcome> {
    const name = listName(raw, lang);
    if (typeof name !== "string") return name;
    const l = await store.watch.list(name);
    if (!l) return unknown(name, lang);
    return l.owner === user.name ? name : notYours(name, lang);
  }

  app.post(
    "/firm/watch/lists/:name/remove",
    { config, bodyLimit: BODY_LIMIT },
    as(async (user, req, lang) => {
      const name = await own(user, (req.params as { name?: unknown }).name, lang);
      if (typeof name !== "string") return name;
      const cuis = cuisOf(req.body, lang);
      if (!Array.isArray(cuis)) return cuis;
      const removed = await store.watch.removeMembers(name, cuis, o.now());
      return ok({ list: name, removed, notMembers: cuis.filter((c) => !removed.includes(c)) });
    }),
  );

  app.delete(
    "/firm/watch/lists/:name",
    { config },
    as(async (user, req, lang) => {
      const name = await own(user, (req.params as { name?: unknown }).name, lang);
      if (typeof name !== "string") return name;
      return (await store.watch.removeList(name, o.now())) ? ok({ list: name, removed: true }) : unknown(name, lang);
    }),
  );

  app.get(
    "/firm/watch/changes",
    { config },
    as(async (user, req, lang) => {
      const raw = (req.query as { after?: unknown }).after ?? "0";
      const after = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(after)) return json(400, "bad_request", t(lang, "watch.api.badAfter"));
      const { mine, following } = await visible(user);
      const names = [...mine, ...following].map((l) => l.name);
      const found = await store.watch.changesOf(names, after, CHANGES_PAGE + 1);
      const changes = found.slice(0, CHANGES_PAGE);
      return ok({
        changes: changes.map((c) => ({
          id: c.id,
          list: c.list,
          cui: c.cui,
          name: c.name,
          field: c.field,
          before: c.before,
          after: c.after,
          seenAt: c.seenAt,
        })),
        last: changes.length > 0 ? changes[changes.length - 1].id : after,
        more: found.length > CHANGES_PAGE,
      });
    }),
  );
}
