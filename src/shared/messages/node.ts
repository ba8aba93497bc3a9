/**
 * The catalogs of the Node surfaces (`firma refresh`, `firma serve`, `firma users`, `firma audit`):
 * the add-in's catalog (ro.ts, en.ts) and what only they say (node-ro.ts, node-en.ts), read the same
 * way. The add-in never imports this module, so its startup scripts do not carry those texts.
 */
import { en } from "./en";
import { fill, isMessageKey as isAddinKey, type Lang, type MessageKey as AddinKey, type Params } from "./index";
import { nodeEn } from "./node-en";
import { nodeRo, type NodeOnlyKey } from "./node-ro";
import { ro } from "./ro";

export { count, formatNumber, keySegment, type Lang, type Noun, type Params } from "./index";

/** A key of either catalog. */
export type MessageKey = AddinKey | NodeOnlyKey;

const NODE: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { ro: { ...ro, ...nodeRo }, en: { ...en, ...nodeEn } };

export function isMessageKey(key: string): key is MessageKey {
  return isAddinKey(key) || Object.prototype.hasOwnProperty.call(nodeRo, key);
}

/** The text for a key in a language, with `{name}` placeholders filled in. */
export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  return fill(NODE[lang === "en" ? "en" : "ro"][key], key, lang, params);
}
