/**
 * The pane's link to a firm's FIRMA server (`firma serve` in custody mode): the firm's key stays on
 * that server, and each person saves a personal token (`firma_…`) where the key goes. The pane asks
 * the service address `GET /firm/me` with the saved token and learns who she is there and her own
 * monthly budget and spend — the figures the Plan and usage part shows instead of the plan's.
 *
 *  - 200 with `{ name, budget, spent, remaining, month }`: connected;
 *  - 401 / 403: the token is refused (revoked, unknown, or not a token);
 *  - 404 (or anything that is not the firm's answer): an ordinary service, today's pane;
 *  - no answer, 5xx: the firm's server cannot be reached now (the last figures are kept).
 *
 * Only a saved value of a token's form (`firma_…`) is sent there: an ordinary key never leaves for
 * /firm/me, so a pane with an ordinary key sends exactly what it sent before. The token goes in the
 * X-API-Key header to the address it is already sent to; it is in no URL, message or attribute.
 */
import { getValidBaseUrl } from "../../api/options";
import { getApiKey, getSettings } from "../../shared/settings";
import type { PaneContext } from "./context";

/** The person's own figures, as the firm's server gives them. */
export interface FirmMe {
  name: string;
  budget: number;
  spent: number;
  remaining: number;
  /** YYYY-MM (Bucharest). */
  month: string;
}

export type FirmState =
  { kind: "none" } | { kind: "connected"; me: FirmMe } | { kind: "refused"; status: number } | { kind: "unreachable"; last: FirmMe | null };

const NONE: FirmState = { kind: "none" };

/** A value the pane treats as a personal token: the firm's server decides whether it is one. */
export function looksLikeToken(key: string | null | undefined): key is string {
  return typeof key === "string" && key.startsWith("firma_");
}

function isMe(v: unknown): v is FirmMe {
  const o = v as Record<string, unknown> | null;
  const n = (x: unknown) => typeof x === "number" && Number.isFinite(x) && x >= 0;
  return (
    typeof o === "object" &&
    o !== null &&
    typeof o.name === "string" &&
    o.name !== "" &&
    n(o.budget) &&
    n(o.spent) &&
    n(o.remaining) &&
    typeof o.month === "string"
  );
}

/** The address of /firm/me beside the service's /v4, or null when the address is not valid. */
export function firmMeUrl(baseUrl: string): string | null {
  try {
    return `${getValidBaseUrl(baseUrl)}/firm/me`;
  } catch {
    return null;
  }
}

/** One question to the firm's server about `token` (never throws). */
export async function askFirm(
  token: string,
  baseUrl: string,
  options: { fetch?: typeof fetch; timeoutMs?: number; last?: FirmMe | null } = {},
): Promise<FirmState> {
  const url = firmMeUrl(baseUrl);
  if (!looksLikeToken(token) || url === null) return NONE;
  const last = options.last ?? null;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 10_000);
  try {
    const r = await (options.fetch ?? fetch)(url, {
      headers: { "X-API-Key": token, Accept: "application/json" },
      cache: "no-store",
      credentials: "omit",
      signal: abort.signal,
    });
    if (r.status === 401 || r.status === 403) return { kind: "refused", status: r.status };
    if (r.status >= 500) return { kind: "unreachable", last };
    if (r.status !== 200) return NONE;
    const body: unknown = await r.json().catch(() => null);
    return isMe(body) ? { kind: "connected", me: body } : NONE;
  } catch {
    return { kind: "unreachable", last };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the pane knows of the firm's server for the saved token, kept fresh: `poke()` asks again
 * (one question at a time; pokes during one make one more after it), and the listeners hear of
 * every change of state or figures.
 */
export class FirmLink {
  state: FirmState = NONE;
  private forKey: string | null = null;
  private running: Promise<FirmState> | null = null;
  private again = false;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly fetchImpl?: typeof fetch) {}

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The person's figures when known (connected, or the last ones while the server is away). */
  get me(): FirmMe | null {
    return this.state.kind === "connected" ? this.state.me : this.state.kind === "unreachable" ? this.state.last : null;
  }

  /** The state for the key saved now, without asking (a key changed since the last answer: none yet). */
  current(): FirmState {
    return this.forKey === getApiKey() ? this.state : NONE;
  }

  /** Asks again for the saved token, and resolves with the state once the answer is in. */
  check(): Promise<FirmState> {
    if (this.running) {
      this.again = true;
      return this.running.then(() => this.running ?? this.state);
    }
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.check();
      }
    });
    return this.running;
  }

  /** Asks again when the saved value is a token; cheap otherwise. */
  poke(): void {
    if (looksLikeToken(getApiKey()) || this.state.kind !== "none") void this.check();
  }

  private async run(): Promise<FirmState> {
    const key = getApiKey();
    let next: FirmState = NONE;
    if (looksLikeToken(key)) {
      const last = key === this.forKey ? this.me : null;
      next = await askFirm(key, getSettings().baseUrl, { fetch: this.fetchImpl, last });
      if (getApiKey() !== key) return this.state; // the key changed meanwhile: the next question is for it
    }
    this.set(key, next);
    return next;
  }

  private set(key: string | null, next: FirmState): void {
    const changed = key !== this.forKey || JSON.stringify(next) !== JSON.stringify(this.state);
    this.forKey = key;
    this.state = next;
    if (changed) for (const l of this.listeners) l();
  }
}

const links = new WeakMap<PaneContext, FirmLink>();

/** The one link of a pane (its key and usage sections share it). */
export function firmLink(ctx: PaneContext): FirmLink {
  let link = links.get(ctx);
  if (!link) links.set(ctx, (link = new FirmLink()));
  return link;
}
