/**
 * What the watch's alerts say, in Romanian: the e-mail a list's alert is, the SMTP options of
 * `firma serve` and `firma watch run`, `firma watch hook` (src/server/firm/watch-mail.ts,
 * watch-alert-options.ts, watch-command.ts). Kept apart from node-ro.ts, which joins them, so that each
 * catalog file stays one subject; English is in alert-en.ts, under the same keys.
 */
export const alertRo = {
  "alert.help.smtp":
    "serverul SMTP al alertelor pe e-mail, fără parolă: smtp://gazda:port (smtps:// pentru TLS); cu parolă: --smtp-file sau FIRMA_SMTP_URL",
  "alert.help.smtpFile": "fișierul cu adresa serverului SMTP pe primul rând, cu utilizator și parolă (smtp://utilizator:parola@gazda:587)",
  "alert.help.smtpFrom": "expeditorul alertelor: alerte@firma.ro sau „FIRMA <alerte@firma.ro>” (implicit FIRMA_SMTP_FROM)",
  "alert.smtpBoth": "dați fie --smtp, fie --smtp-file, nu amândouă.",
  "alert.smtpPassword":
    "--smtp nu primește utilizator sau parolă (ar apărea în lista proceselor): puneți adresa cu parola într-un fișier dat cu --smtp-file, sau în FIRMA_SMTP_URL.",
  "alert.smtpBad": "{source}: „{value}” nu este adresa unui server SMTP; scrieți smtp://gazda:port sau smtps://gazda:465.",
  "alert.smtpFileUnreadable": "fișierul {file} (--smtp-file) nu poate fi citit ({reason}).",
  "alert.smtpNoFrom": "lipsește expeditorul alertelor: dați --smtp-from alerte@firma.ro (sau FIRMA_SMTP_FROM).",
  "alert.smtpBadFrom": "expeditorul „{value}” nu este o adresă de e-mail: scrieți alerte@firma.ro sau „FIRMA <alerte@firma.ro>”.",
  "alert.smtpFromOnly": "--smtp-from are nevoie de un server SMTP: dați și --smtp, --smtp-file sau FIRMA_SMTP_URL.",
  "alert.smtpCustodyOnly": "alertele pe e-mail (--smtp, --smtp-file) sunt ale modului de custodie: dați și --key-file.",
  "alert.smtpOn": "Alertele listelor urmărite pleacă pe e-mail prin {server}, de la {from}.",
  "alert.smtpOff":
    "Niciun server SMTP (--smtp, --smtp-file sau FIRMA_SMTP_URL): alertele pe e-mail ale listelor urmărite așteaptă; webhook-urile pleacă.",
  "alert.show.pending": "Alerte care așteaptă ({target}): {n}; firma watch log {name} spune de ce.",
  "alert.show.failed": "Alerte eșuate ({target}): {n}; firma watch log {name} spune de ce.",
  "alert.mail.subject": "FIRMA: {changes} în lista {list}",
  "alert.mail.intro": "Verificarea listei {list} ({owner}) din {at}, ora României, a găsit {changes}:",
  "alert.mail.more": "… și încă {more}, toate în fișierul atașat.",
  "alert.mail.csv":
    "Schimbările sunt și în fișierul CSV atașat, câte una pe rând. Numărul (Nr.) fiecăreia o identifică: o alertă primită de două ori are aceleași numere.",
  "alert.mail.footer":
    "Trimis de FIRMA pentru lista {list}; destinatarii se schimbă cu firma watch set {list} --notify, sau firma users set --email.",
  "alert.mail.col.id": "Nr.",
  "watch.help.hook": "webhook-ul unei liste: adresa (https) unde merg alertele ei, semnate cu un secret comun; --remove îl șterge",
  "watch.help.url": "adresa webhook-ului: https://… (http doar pe acest calculator)",
  "watch.help.secretFile": "fișierul cu secretul comun (un rând, cel puțin 16 caractere); nu se dă pe linia de comandă",
  "watch.help.removeHook": "șterge webhook-ul listei",
  "watch.hook.nothing": "dați --url https://… și --secret-file FIȘIER, sau --remove.",
  "watch.hook.urlAndRemove": "dați fie --url, fie --remove, nu amândouă.",
  "watch.hook.badUrl": "adresa webhook „{value}” nu este acceptată: {reason}. Nu s-a scris nimic.",
  "watch.hook.format": "nu este o adresă https://…",
  "watch.hook.https": "în afara acestui calculator doar https:// (alertele și semnătura lor nu circulă necriptate)",
  "watch.hook.credentials": "fără utilizator sau parolă în adresă (receptorul verifică semnătura)",
  "watch.hook.noSecret": "lipsește secretul comun: dați --secret-file FIȘIER (un secret nu se dă pe linia de comandă).",
  "watch.hook.secretUnreadable": "fișierul {file} nu poate fi citit ({reason}); nu s-a scris nimic.",
  "watch.hook.badSecret":
    "secretul din {file} nu este acceptat: un singur rând de {min}–{max} caractere ASCII vizibile, fără spații. Nu s-a scris nimic.",
  "watch.hook.set": "Alertele listei {name} merg și la {url}, semnate cu secretul din {file} (păstrat în baza de date a firmei).",
  "watch.hook.removed": "Lista {name} nu mai are webhook.",
  "watch.hook.none": "Lista {name} nu avea webhook.",
  "watch.hook.shown": "Webhook: {url}.",
  // watch: firma watch add|set|list|show|remove|log (src/server/firm/watch-command.ts)
} as const;

export type AlertMessageKey = keyof typeof alertRo;
