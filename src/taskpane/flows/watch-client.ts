/**
 * The pane's questions to the firm's server about the person's watch lists (`/firm/watch…`,
 * src/server/firm/watch-routes.ts), and where the pane keeps the last change it showed her. Only a
 * saved token (`firma_…`) is sent, in the X-API-Key header, to the address it already goes to (as
 * /firm/me: pane/firm.ts); never in a URL. What the server says is data: shown as text, never as markup.
 */
import { getValidBaseUrl } from "../../api/options";
import { getApiKey, getSettings, settingsStore, STORAGE_KEYS } from "../../shared/settings";
import type { Lang } from "../i18n";
import { looksLikeToken } from "../pane/firm";

export interface WatchListView {
  name: string;
  /** Hers (she may change it); false: a firm's list that alerts her address (read-only). */
  mine: boolean;
  companies: number;
  schedule: string;
  scheduleDefault: boolean;
  /** Credits a month. */
  cost: { low: number; high: number };
  stopped: { at: number; reason: string } | null;
  lastCheck: { at: number; outcome: string; changes: number; unknown: number; reason: string | null } | null;
}

export interface WatchLists {
  owner: string;
  budget: number;
  lists: WatchListView[];
  following: WatchListView[];
}

export interface WatchQuote {
  list: string;
  exists: boolean;
  companies: number;
  adding: number;
  already: number;
  cost: { checksPerMonth: number; financial: number; perCheck: { low: number; high: number }; monthly: { low: number; high: number } };
  budget: { others: number; total: number; budget: number; fits: boolean };
  /** The refusal with its arithmetic, when it does not fit her budget. */
  message: string | null;
}

export interface WatchChangeView {
  id: number;
  list: string;
  cui: number;
  name: string | null;
  field: string;
  before: unknown;
  after: unknown;
  seenAt: number;
}

export interface WatchChanges {
  changes: WatchChangeView[];
  last: number;
  more: boolean;
}

/** An answer, or why there is none: the server's refusal (its code and words) or no answer at all. */
export type Answer<T> = { ok: true; body: T } | { ok: false; status: number; code: string; message: string | null };

/** Companies one request may send (the server's MAX_CUIS). */
export const MAX_WATCH_CUIS = 10_000;

export class WatchClient {
  constructor(
    private readonly lang: () => Lang,
    private readonly fetchImpl: typeof fetch = (...a) => fetch(...a),
  ) {}

  /** The saved token and the server's address, or null when the saved key is not a token. */
  private target(): { token: string; base: string } | null {
    const token = getApiKey();
    if (!looksLikeToken(token)) return null;
    try {
      return { token, base: getValidBaseUrl(getSettings().baseUrl) };
    } catch {
      return null;
    }
  }

  /** Where the last change shown to `owner` is kept: per server and person. */
  seenKey(owner: string): string | null {
    const t = this.target();
    return t && `${t.base}|${owner}`;
  }

  private async ask<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const t = this.target();
    if (!t) return { ok: false, status: 0, code: "no_token", message: null };
    const headers: Record<string, string> = { "X-API-Key": t.token, Accept: "application/json", "Accept-Language": this.lang() };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 20_000);
    try {
      const r = await this.fetchImpl(`${t.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
        credentials: "omit",
        signal: abort.signal,
      });
      const parsed: unknown = await r.json().catch(() => null);
      if (r.ok && parsed !== null && typeof parsed === "object") return { ok: true, body: parsed as T };
      const e = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      return {
        ok: false,
        status: r.status,
        code: typeof e?.code === "string" ? e.code : "http",
        message: typeof e?.message === "string" ? e.message : null,
      };
    } catch {
      return { ok: false, status: 0, code: "unreachable", message: null };
    } finally {
      clearTimeout(timer);
    }
  }

  lists(): Promise<Answer<WatchLists>> {
    return this.ask("GET", "/firm/watch");
  }

  members(list: string): Promise<Answer<{ name: string; mine: boolean; cuis: number[]; names: Record<string, string> }>> {
    return this.ask("GET", `/firm/watch/lists/${encodeURIComponent(list)}`);
  }

  quote(list: string, cuis: number[]): Promise<Answer<WatchQuote>> {
    return this.ask("POST", "/firm/watch/quote", { list, cuis });
  }

  add(list: string, cuis: number[]): Promise<Answer<{ list: string; created: boolean; companies: number; added: number }>> {
    return this.ask("POST", "/firm/watch/lists", { list, cuis });
  }

  removeMembers(list: string, cuis: number[]): Promise<Answer<{ removed: number[] }>> {
    return this.ask("POST", `/firm/watch/lists/${encodeURIComponent(list)}/remove`, { cuis });
  }

  removeList(list: string): Promise<Answer<{ removed: boolean }>> {
    return this.ask("DELETE", `/firm/watch/lists/${encodeURIComponent(list)}`);
  }

  changes(after: number): Promise<Answer<WatchChanges>> {
    return this.ask("GET", `/firm/watch/changes?after=${after}`);
  }
}

/** The last change shown and marked seen, per server and person (0: none yet). */
export async function seenId(who: string): Promise<number> {
  const all = await readSeen();
  const id = all[who];
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

export async function saveSeenId(who: string, id: number): Promise<void> {
  const all = await readSeen();
  all[who] = id;
  await settingsStore().setItem(STORAGE_KEYS.watchSeen, JSON.stringify(all));
}

async function readSeen(): Promise<Record<string, unknown>> {
  try {
    const raw = await settingsStore().getItem(STORAGE_KEYS.watchSeen);
    const v: unknown = raw ? JSON.parse(raw) : {};
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
