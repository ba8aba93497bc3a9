import type { Lang } from "./i18n";

/**
 * Where the pane's "get a key" link goes: the service's page for a key when the build names one
 * (FIRMA_KEY_URL, scripts/deployment.js), else the key section of the add-in's help page in `lang`
 * (ajutor.html / help.html, built beside the pane: scripts/help-pages.js), a relative address that
 * resolves against the pane's own. `configured`: for tests; outside webpack it is "".
 */
export function keyPageUrl(lang: Lang, configured: string = typeof FIRMA_KEY_URL === "string" ? FIRMA_KEY_URL : ""): string {
  return configured || (lang === "ro" ? "ajutor.html#cheie" : "help.html#cheie");
}
