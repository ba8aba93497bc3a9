/**
 * The pane's texts come from the one catalog per language (src/shared/messages). The page's HTML
 * carries only keys (`data-i18n`, `data-i18n-placeholder`, `data-i18n-aria-label`); `applyTexts`
 * fills them, and the pane's code asks `t()` for the rest.
 */
import { isMessageKey, t, type Lang } from "../shared/messages";

export type { Lang } from "../shared/messages";

export { count, formatNumber, t, isMessageKey as isTextKey, type MessageKey as TextKey } from "../shared/messages";

/**
 * Fills the page's texts: `data-i18n` → textContent, `data-i18n-placeholder`,
 * `data-i18n-aria-label` and `data-i18n-title` → those attributes; sets `<html lang>`.
 */
export function applyTexts(root: Document, lang: Lang): void {
  root.documentElement.lang = lang;
  const fill = (attr: string, set: (el: Element, text: string) => void) => {
    root.querySelectorAll(`[${attr}]`).forEach((el) => {
      const key = el.getAttribute(attr) ?? "";
      if (isMessageKey(key)) set(el, t(lang, key));
    });
  };
  fill("data-i18n", (el, text) => (el.textContent = text));
  fill("data-i18n-placeholder", (el, text) => el.setAttribute("placeholder", text));
  fill("data-i18n-aria-label", (el, text) => el.setAttribute("aria-label", text));
  fill("data-i18n-title", (el, text) => el.setAttribute("title", text));
}
