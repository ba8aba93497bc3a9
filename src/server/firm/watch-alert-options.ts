/**
 * Where the watch's e-mail alerts leave from, as `firma serve` and `firma watch run` take it, checked
 * before anything starts: `--smtp smtp://host:port` for a relay that wants no password (a password on
 * the command line would show in the list of processes, so one there is refused), else `--smtp-file F`
 * (the address on the file's first line, user and password included) or FIRMA_SMTP_URL; `smtps://` for
 * TLS from the first byte. The sender is `--smtp-from` (else FIRMA_SMTP_FROM), required with a server.
 * Each problem is one line from the catalogs that names the option, the file or the variable, never the
 * address's password.
 */
import { Option, type Command } from "commander";
import { readFileSync } from "fs";
import { t, type Lang, type MessageKey } from "../../shared/messages/node";
import type { SmtpSettings } from "./watch-mail";

export interface AlertFlags {
  smtp?: string;
  smtpFile?: string;
  smtpFrom?: string;
}

type Die = (key: MessageKey, params?: Record<string, string | number>) => Error;

/** A From address: `alerte@firma.ro`, or `FIRMA <alerte@firma.ro>`. */
const FROM = /^(?:[^<>@\r\n]*<[^\s@<>,;"()]+@[^\s@<>,;"()]+\.[^\s@<>,;"()]+>|[^\s@<>,;"()]+@[^\s@<>,;"()]+\.[^\s@<>,;"()]+)$/;

/** Adds --smtp, --smtp-file and --smtp-from to a command. */
export function withAlertOptions(cmd: Command, lang: Lang): Command {
  return cmd
    .addOption(new Option("--smtp <url>", t(lang, "alert.help.smtp")))
    .addOption(new Option("--smtp-file <file>", t(lang, "alert.help.smtpFile")))
    .addOption(new Option("--smtp-from <address>", t(lang, "alert.help.smtpFrom")));
}

/** An SMTP address's parts, or null when it is not `smtp://host[:port]` or `smtps://…`. */
function parse(value: string): URL | null {
  try {
    const u = new URL(value.trim());
    return (u.protocol === "smtp:" || u.protocol === "smtps:") && u.hostname !== "" ? u : null;
  } catch {
    return null;
  }
}

/** The SMTP settings, or null when no server is given (e-mail alerts then wait for a process that has one). */
export function smtpSettings(f: AlertFlags, env: Record<string, string | undefined>, die: Die): SmtpSettings | null {
  if (f.smtp !== undefined && f.smtpFile !== undefined) throw die("alert.smtpBoth");
  let url: string | undefined;
  if (f.smtp !== undefined) {
    const u = parse(f.smtp);
    // Said before the address is checked further, and without it: it may hold the password.
    if (/^[a-z]+:\/\/[^/]*@/i.test(f.smtp.trim()) || (u && (u.username !== "" || u.password !== ""))) throw die("alert.smtpPassword");
    if (!u) throw die("alert.smtpBad", { source: "--smtp", value: f.smtp.slice(0, 80) });
    url = u.href;
  } else if (f.smtpFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(f.smtpFile, "utf8");
    } catch (e) {
      throw die("alert.smtpFileUnreadable", { file: f.smtpFile, reason: (e as NodeJS.ErrnoException).code ?? "?" });
    }
    const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
    if (!parse(line)) throw die("alert.smtpBad", { source: f.smtpFile, value: "…" });
    url = line.trim();
  } else if (env.FIRMA_SMTP_URL !== undefined && env.FIRMA_SMTP_URL.trim() !== "") {
    if (!parse(env.FIRMA_SMTP_URL)) throw die("alert.smtpBad", { source: "FIRMA_SMTP_URL", value: "…" });
    url = env.FIRMA_SMTP_URL.trim();
  }
  const from = f.smtpFrom ?? env.FIRMA_SMTP_FROM;
  if (url === undefined) {
    if (f.smtpFrom !== undefined) throw die("alert.smtpFromOnly");
    return null;
  }
  if (from === undefined || from.trim() === "") throw die("alert.smtpNoFrom");
  if (!FROM.test(from.trim())) throw die("alert.smtpBadFrom", { value: from.slice(0, 80) });
  return { url, from: from.trim() };
}

/** The server as a message may name it: `smtp://host:port`, without user or password. */
export function describeSmtp(url: string): string {
  const u = parse(url);
  return u ? `${u.protocol}//${u.host}` : "smtp://…";
}
