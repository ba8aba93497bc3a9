/**
 * The flows' texts (search, match a column, add columns), Romanian and English: their own catalogs
 * (texts-ro.ts, texts-en.ts), loaded with the flows so that the pane's startup scripts do not carry
 * them; read the way the pane's catalog is (src/shared/messages: placeholders, numbers). The page
 * names them with `data-flow-i18n` (textContent) and `data-flow-i18n-aria-label`.
 */
import { fill, type Lang, type Params } from "../../shared/messages";
import { flowEn } from "./texts-en";
import { flowRo, type FlowKey } from "./texts-ro";

export type { FlowKey } from "./texts-ro";

const CATALOGS: Readonly<Record<Lang, Readonly<Record<FlowKey, string>>>> = { ro: flowRo, en: flowEn };

/** A flow's text in a language, `{name}` placeholders filled in. */
export function ft(lang: Lang, key: FlowKey, params: Params = {}): string {
  return fill(CATALOGS[lang === "en" ? "en" : "ro"][key], key, lang, params);
}

export function isFlowKey(key: string): key is FlowKey {
  return Object.prototype.hasOwnProperty.call(flowRo, key);
}

/** Fills the flows' texts of the page in `lang`. */
export function applyFlowTexts(root: Document, lang: Lang): void {
  const fillAttr = (attr: string, set: (el: Element, text: string) => void) =>
    root.querySelectorAll(`[${attr}]`).forEach((el) => {
      const key = el.getAttribute(attr) ?? "";
      if (isFlowKey(key)) set(el, ft(lang, key));
    });
  fillAttr("data-flow-i18n", (el, text) => (el.textContent = text));
  fillAttr("data-flow-i18n-aria-label", (el, text) => el.setAttribute("aria-label", text));
}
