/** What the watch's alerts say, in English (alert-ro.ts says why these are apart). */
import type { AlertMessageKey } from "./alert-ro";

export const alertEn: Readonly<Record<AlertMessageKey, string>> = {
  "alert.help.smtp":
    "the SMTP server of the e-mail alerts, without a password: smtp://host:port (smtps:// for TLS); with a password: --smtp-file or FIRMA_SMTP_URL",
  "alert.help.smtpFile":
    "a file with the SMTP server's address on its first line, user and password included (smtp://user:password@host:587)",
  "alert.help.smtpFrom": 'the alerts\' sender: alerts@firm.ro or "FIRMA <alerts@firm.ro>" (default FIRMA_SMTP_FROM)',
  "alert.smtpBoth": "give either --smtp or --smtp-file, not both.",
  "alert.smtpPassword":
    "--smtp takes no user or password (it would show in the list of processes): put the address with its password in a file given with --smtp-file, or in FIRMA_SMTP_URL.",
  "alert.smtpBad": '{source}: "{value}" is not an SMTP server\'s address; write smtp://host:port or smtps://host:465.',
  "alert.smtpFileUnreadable": "the file {file} (--smtp-file) cannot be read ({reason}).",
  "alert.smtpNoFrom": "the alerts' sender is missing: give --smtp-from alerts@firm.ro (or FIRMA_SMTP_FROM).",
  "alert.smtpBadFrom": 'the sender "{value}" is not an e-mail address: write alerts@firm.ro or "FIRMA <alerts@firm.ro>".',
  "alert.smtpFromOnly": "--smtp-from needs an SMTP server: give --smtp, --smtp-file or FIRMA_SMTP_URL too.",
  "alert.smtpCustodyOnly": "e-mail alerts (--smtp, --smtp-file) belong to custody mode: give --key-file too.",
  "alert.smtpOn": "The watch lists' alerts are e-mailed through {server}, from {from}.",
  "alert.smtpOff": "No SMTP server (--smtp, --smtp-file or FIRMA_SMTP_URL): the watch lists' e-mail alerts wait; webhooks are sent.",
  "alert.show.pending": "Alerts waiting ({target}): {n}; firma watch log {name} says why.",
  "alert.show.failed": "Alerts failed ({target}): {n}; firma watch log {name} says why.",
  "alert.mail.subject": "FIRMA: {changes} in the list {list}",
  "alert.mail.intro": "The check of the list {list} ({owner}) at {at}, Bucharest time, found {changes}:",
  "alert.mail.more": "… and {more} more, all in the attached file.",
  "alert.mail.csv":
    "The changes are also in the attached CSV file, one per row. Each one's number (No.) identifies it: an alert received twice has the same numbers.",
  "alert.mail.footer":
    "Sent by FIRMA for the list {list}; the recipients change with firma watch set {list} --notify, or firma users set --email.",
  "alert.mail.col.id": "No.",
  "watch.help.hook": "a list's webhook: the address (https) its alerts go to, signed with a shared secret; --remove deletes it",
  "watch.help.url": "the webhook's address: https://… (http only on this computer)",
  "watch.help.secretFile": "the file with the shared secret (one line, at least 16 characters); never given on the command line",
  "watch.help.removeHook": "delete the list's webhook",
  "watch.hook.nothing": "give --url https://… and --secret-file FILE, or --remove.",
  "watch.hook.urlAndRemove": "give either --url or --remove, not both.",
  "watch.hook.badUrl": 'the webhook address "{value}" is not accepted: {reason}. Nothing was written.',
  "watch.hook.format": "it is not an https://… address",
  "watch.hook.https": "off this computer only https:// (the alerts and their signature do not travel unencrypted)",
  "watch.hook.credentials": "no user or password in the address (the receiver checks the signature)",
  "watch.hook.noSecret": "the shared secret is missing: give --secret-file FILE (a secret is never given on the command line).",
  "watch.hook.secretUnreadable": "the file {file} cannot be read ({reason}); nothing was written.",
  "watch.hook.badSecret":
    "the secret in {file} is not accepted: one line of {min}–{max} visible ASCII characters, no spaces. Nothing was written.",
  "watch.hook.set": "The alerts of the list {name} also go to {url}, signed with the secret from {file} (kept in the firm's database).",
  "watch.hook.removed": "The list {name} has no webhook any more.",
  "watch.hook.none": "The list {name} had no webhook.",
  "watch.hook.shown": "Webhook: {url}.",
};
