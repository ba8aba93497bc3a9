/**
 * A watch list's alert by webhook: one POST per list and check to the address the administrator set
 * (`firma watch hook`; never from the pane), with the changes as JSON, each with its number so that the
 * receiver de-duplicates (delivery is at least once). The body is signed with the secret the firm and
 * the receiver share: `X-Firma-Signature: sha256=<hex>` is HMAC-SHA256 over `<timestamp>.<body>`, with
 * the timestamp (seconds since the epoch) in `X-Firma-Timestamp`, so that the receiver checks both who
 * sent it and that it is not an old one replayed (docs/deploy.md shows how). The address is https, or
 * http on this computer only; a redirect is not followed (it could lead anywhere); each attempt has its
 * own timeout.
 */
import { createHmac } from "crypto";
import { isLoopbackHost } from "../../api/options";
import type { AlertMail } from "./watch-mail";

/** Signature and timestamp headers (lower case, as Node reads them). */
export const SIGNATURE_HEADER = "x-firma-signature";
export const TIMESTAMP_HEADER = "x-firma-timestamp";

/** A secret's length in characters: at least MIN (guessing it must be hopeless), at most MAX. */
export const SECRET_LENGTH = { min: 16, max: 512 } as const;

export type WebhookUrlProblem = "format" | "https" | "credentials";

/** The address as stored, or why it is refused: not a URL, not https off loopback, a user or password in it. */
export function checkWebhookUrl(value: string): { ok: true; url: string } | { ok: false; problem: WebhookUrlProblem } {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return { ok: false, problem: "format" };
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return { ok: false, problem: "format" };
  if (u.protocol === "http:" && !isLoopbackHost(u.hostname)) return { ok: false, problem: "https" };
  if (u.username !== "" || u.password !== "") return { ok: false, problem: "credentials" };
  return { ok: true, url: u.href };
}

/** A secret as read from its file (trimmed), or null when it is too short, too long, or not one line of visible ASCII. */
export function checkWebhookSecret(raw: string): string | null {
  const s = raw.trim();
  return s.length >= SECRET_LENGTH.min && s.length <= SECRET_LENGTH.max && /^[\x21-\x7e]+$/.test(s) ? s : null;
}

/** The signature of a body sent at `timestamp` (seconds): hex HMAC-SHA256 of `<timestamp>.<body>`. */
export function sign(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/** The JSON the receiver gets. */
export function webhookBody(a: AlertMail): string {
  return JSON.stringify({
    event: "watch.changes",
    list: a.list,
    owner: a.owner,
    alert: a.alert,
    seenAt: new Date(a.seenAt).toISOString(),
    changes: a.changes.map((c) => ({
      id: c.id,
      cui: c.cui,
      name: c.name,
      field: c.field,
      before: c.before ?? null,
      after: c.after ?? null,
      seenAt: new Date(c.seenAt).toISOString(),
    })),
  });
}

/** An attempt that failed: the receiver's status (0: no answer), and whether trying again may help. */
export class WebhookFailure extends Error {
  override readonly name = "WebhookFailure";
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface PostOptions {
  /** Per attempt. @default 10000 */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The clock of the timestamp. @default Date.now */
  now?: () => number;
}

/**
 * Statuses worth another attempt: the receiver's trouble (5xx), a timeout or a rate limit. Any other
 * 4xx says the receiver will not take this alert however often it comes (a wrong signature, a gone
 * address): failed at once, with the status in the log. A redirect is not followed, and retried.
 */
function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429 || (status >= 300 && status < 400);
}

/** Posts the alert; resolves to the receiver's 2xx status, rejects with a WebhookFailure. */
export async function postAlert(url: string, secret: string, a: AlertMail, o: PostOptions = {}): Promise<number> {
  const checked = checkWebhookUrl(url);
  // Checked when it was set; checked again here, should the database have been edited by hand.
  if (!checked.ok) throw new WebhookFailure(`refused address (${checked.problem})`, 0, false);
  const body = webhookBody(a);
  const timestamp = Math.floor((o.now ?? Date.now)() / 1000);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(checked.url, {
      method: "POST",
      body,
      redirect: "manual",
      signal: abort.signal,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "FIRMA-watch",
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: `sha256=${sign(secret, timestamp, body)}`,
        "x-firma-alert": String(a.alert),
      },
    });
    // The answer's body is not read (nothing in it is used), only let go.
    await res.body?.cancel().catch(() => undefined);
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new WebhookFailure(
      abort.signal.aborted ? `no answer in ${timeoutMs} ms` : `unreachable (${cause ?? (e as Error).message})`,
      0,
      true,
    );
  } finally {
    clearTimeout(timer);
  }
  if (res.status >= 200 && res.status < 300) return res.status;
  throw new WebhookFailure(`HTTP ${res.status}`, res.status, retryable(res.status));
}
