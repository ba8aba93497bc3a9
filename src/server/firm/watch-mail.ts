/**
 * A watch list's alert by e-mail: one message per list and check, Romanian first then English, as
 * plain text and as HTML, with the changes as a table (the first MAX_TABLE_ROWS; the rest are in the
 * attachment) and as an attached CSV, one row per change with its number, so that a receiver who gets
 * the same alert twice (delivery is at least once) sees the same numbers. Every value the service gave
 * (a company's name, an address) is data: escaped in the HTML, neutralized in the CSV (src/shared/csv.ts).
 * Sent over SMTP by nodemailer, with timeouts short enough that a server that never answers is an
 * attempt that failed, not a delivery that hangs.
 */
import { createTransport, type Transporter } from "nodemailer";
import { bucharestTime } from "../../engine/credits/bucharest-time";
import { changeValue, fieldLabel } from "../../shared/changes-table";
import { csvDocument, type CsvValue } from "../../shared/csv";
import { count, t, type Lang } from "../../shared/messages/node";
import { table } from "./command-kit";
import type { StoredChange } from "./watch-store";

/** Changes shown in a message's body; all of them are in the CSV. */
export const MAX_TABLE_ROWS = 200;

export interface AlertMail {
  list: string;
  /** The list's owner; null: the firm's. */
  owner: string | null;
  /** The alert's number (one per list and check). */
  alert: number;
  seenAt: number;
  changes: readonly StoredChange[];
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  csv: string;
  filename: string;
}

const LANGS: readonly Lang[] = ["ro", "en"];

/** The CSV's header: both languages in each column's name, as `firma audit --csv` writes it. */
const CSV_HEADER = ["nr/id", "lista/list", "CUI", "firma/company", "câmp/field", "înainte/before", "după/after", "văzut/seen"];

/** The alert's changes as a CSV file: the field as its code, booleans as TRUE/FALSE, the time in ISO 8601 (UTC). */
export function alertCsv(changes: readonly StoredChange[]): string {
  const rows: CsvValue[][] = [CSV_HEADER];
  for (const c of changes)
    rows.push([c.id, c.list, c.cui, c.name ?? "", c.field, csvValue(c.before), csvValue(c.after), new Date(c.seenAt).toISOString()]);
  return csvDocument(rows, { bom: true });
}

function csvValue(v: unknown): CsvValue {
  if (v === null || v === undefined || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return JSON.stringify(v);
}

function rowsOf(changes: readonly StoredChange[], lang: Lang): string[][] {
  return changes
    .slice(0, MAX_TABLE_ROWS)
    .map((c) => [
      String(c.id),
      String(c.cui),
      c.name ?? "",
      fieldLabel(c.field, lang),
      changeValue(c.before, lang),
      changeValue(c.after, lang),
    ]);
}

function headerOf(lang: Lang): string[] {
  return [
    t(lang, "alert.mail.col.id"),
    t(lang, "changes.col.cui"),
    t(lang, "changes.col.company"),
    t(lang, "changes.col.field"),
    t(lang, "changes.col.before"),
    t(lang, "changes.col.after"),
  ];
}

/** `&`, `<`, `>`, `"` and `'` as entities: every value in the HTML goes through here (five replacements need no library). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function paramsOf(a: AlertMail, lang: Lang) {
  return {
    list: a.list,
    owner: a.owner ?? t(lang, "watch.theFirm"),
    changes: count(a.changes.length, "change", lang),
    at: bucharestTime(a.seenAt),
    more: a.changes.length - MAX_TABLE_ROWS,
  };
}

/** The message: subject, text, HTML and the CSV attachment. */
export function composeAlert(a: AlertMail): ComposedMail {
  const subject = LANGS.map((lang) => t(lang, "alert.mail.subject", paramsOf(a, lang))).join(" / ");
  const more = a.changes.length > MAX_TABLE_ROWS;
  const text = LANGS.map((lang) => {
    const p = paramsOf(a, lang);
    return [
      t(lang, "alert.mail.intro", p),
      "",
      table(headerOf(lang), rowsOf(a.changes, lang), new Set([0, 1])).trimEnd(),
      ...(more ? [t(lang, "alert.mail.more", p)] : []),
      "",
      t(lang, "alert.mail.csv", p),
      t(lang, "alert.mail.footer", p),
    ].join("\n");
  }).join("\n\n-----\n\n");
  const html = [
    '<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:sans-serif">',
    ...LANGS.map((lang) => {
      const p = paramsOf(a, lang);
      const cells = (tag: string, values: readonly string[]) => values.map((v) => `<${tag}>${escapeHtml(v)}</${tag}>`).join("");
      return [
        `<section lang="${lang}">`,
        `<p>${escapeHtml(t(lang, "alert.mail.intro", p))}</p>`,
        '<table border="1" cellpadding="4" cellspacing="0" style="border-collapse:collapse">',
        `<thead><tr>${cells("th", headerOf(lang))}</tr></thead>`,
        `<tbody>${rowsOf(a.changes, lang)
          .map((r) => `<tr>${cells("td", r)}</tr>`)
          .join("")}</tbody></table>`,
        ...(more ? [`<p>${escapeHtml(t(lang, "alert.mail.more", p))}</p>`] : []),
        `<p>${escapeHtml(t(lang, "alert.mail.csv", p))}</p>`,
        `<p><small>${escapeHtml(t(lang, "alert.mail.footer", p))}</small></p>`,
        "</section>",
      ].join("\n");
    }),
    "</body></html>",
  ].join("\n<hr>\n");
  const day = bucharestTime(a.seenAt).slice(0, 10);
  return { subject, text, html, csv: alertCsv(a.changes), filename: `firma-${a.list}-${day}-${a.alert}.csv` };
}

/** The SMTP server and the sender, as watch-alert-options.ts reads them. */
export interface SmtpSettings {
  /** `smtp://host:port` or `smtps://…`, with the user and password when the server wants them: never shown. */
  url: string;
  /** The From address. */
  from: string;
  /** Per connection, greeting and idle socket. @default 15000 */
  timeoutMs?: number;
}

/** Why an attempt failed, fit for the log: the server's reply or the error's code, never the URL's password. */
export class MailFailure extends Error {
  override readonly name = "MailFailure";
  constructor(
    message: string,
    /** The SMTP reply's code (550…), or 0 when there was none (the server is down, timed out). */
    readonly responseCode: number,
  ) {
    super(message);
  }
}

export interface MailResult {
  /** The addresses the server took. */
  accepted: string[];
  /** The addresses it refused (the others got the message). */
  rejected: string[];
}

/** The alerts' mailer: one transport, reused between messages. */
export class AlertMailer {
  private readonly transport: Transporter;

  constructor(private readonly s: SmtpSettings) {
    const timeout = s.timeoutMs ?? 15_000;
    this.transport = createTransport({
      url: s.url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      // Nothing the message holds may make nodemailer read a file or fetch a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    } as never);
  }

  /** Sends an alert to `to`; rejects with a MailFailure when no one got it. */
  async send(to: readonly string[], a: AlertMail, host = "firma.invalid"): Promise<MailResult> {
    const m = composeAlert(a);
    try {
      const info = (await this.transport.sendMail({
        from: this.s.from,
        to: [...to],
        subject: m.subject,
        text: m.text,
        html: m.html,
        // The same alert sent twice has the same Message-ID: a mail program may fold them into one.
        messageId: `<firma-watch-${a.alert}-${a.seenAt}@${host}>`,
        headers: { "X-Firma-List": a.list, "X-Firma-Alert": String(a.alert) },
        attachments: [{ filename: m.filename, content: m.csv, contentType: "text/csv; charset=utf-8" }],
      })) as { accepted?: unknown[]; rejected?: unknown[] };
      return { accepted: (info.accepted ?? []).map(String), rejected: (info.rejected ?? []).map(String) };
    } catch (e) {
      throw this.failure(e);
    }
  }

  close(): void {
    this.transport.close();
  }

  private failure(e: unknown): MailFailure {
    const err = e as { code?: string; responseCode?: number; response?: string; message?: string };
    const why = err.response ?? err.message ?? String(e);
    return new MailFailure(redact(`${err.code ?? "ERROR"}: ${why}`.slice(0, 500), this.s.url), err.responseCode ?? 0);
  }
}

/** A text without the password `url` carries (an error could quote the address). */
export function redact(text: string, url: string): string {
  try {
    const u = new URL(url);
    let out = text;
    for (const secret of [u.password, decodeURIComponent(u.password)]) if (secret !== "") out = out.split(secret).join("…");
    return out;
  } catch {
    return text;
  }
}
