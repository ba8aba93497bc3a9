/**
 * The message catalogs (ro.ts, en.ts) and the one way to read them: t(), count(), formatNumber().
 * Every surface renders its texts here, in the user's language: the pane, the cells, the CLI. What
 * only the Node surfaces say (the CLI, firma serve, users, audit) is in node-ro.ts / node-en.ts,
 * read through node.ts, so that the add-in's startup scripts do not carry it.
 */
import type { EngineMessageKey } from "../../engine/local-errors";
import { en } from "./en";
import { ro, type MessageKey } from "./ro";

export type { MessageKey } from "./ro";
export type Lang = "ro" | "en";

export const CATALOGS: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { ro, en };

// The engine names the precise cause of a local failure by key (it cannot import this layer): each
// of its keys must be in the catalog, or this line does not compile.
const _engineKeys: Readonly<Record<EngineMessageKey, string>> = ro;
void _engineKeys;

/** An error kind as a key segment: "credits_exhausted" → "creditsExhausted" (the catalogs' convention). */
export function keySegment(kind: string): string {
  return kind.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(ro, key);
}

/** Parameters: text as is, numbers formatted for the language (write years as strings: "2024"). */
export type Params = Readonly<Record<string, string | number>>;

/** Formats a number the way the language writes it (ro: 12.345; en: 12,345); Infinity: "unlimited". */
export function formatNumber(n: number, lang: Lang): string {
  if (n === Infinity) return t(lang, "usage.unlimited");
  return new Intl.NumberFormat(lang === "ro" ? "ro-RO" : "en-US", { maximumFractionDigits: 0 }).format(n);
}

/** The text for a key in a language, with `{name}` placeholders filled in. */
export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  return fill(CATALOGS[lang === "en" ? "en" : "ro"][key], key, lang, params);
}

/** A catalog's text with its `{name}` placeholders filled in (node.ts reads its own catalogs with it). */
export function fill(text: string | undefined, key: string, lang: Lang, params: Params): string {
  if (text === undefined) throw new Error(`FIRMA: no message ${key}`);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) return `{${name}}`;
    return typeof v === "number" ? formatNumber(v, lang) : v;
  });
}

export type Noun = "credit" | "cell" | "answer" | "firmaFormula" | "formula" | "call" | "change" | "company";

/**
 * "1 credit", "5 credite", "20 de credite" / "1 credit", "5 credits": the noun's form by the
 * language's plural rules (Intl.PluralRules: Romanian one, few, other; English one, other).
 */
export function count(n: number, noun: Noun, lang: Lang): string {
  const forms = t(lang, `noun.${noun}`).split("|");
  const rule = new Intl.PluralRules(lang === "ro" ? "ro-RO" : "en-US").select(n);
  const word = rule === "one" ? forms[0] : rule === "few" || forms.length === 2 ? forms[1] : forms[2];
  return `${formatNumber(n, lang)} ${word}`;
}
