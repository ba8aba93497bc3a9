/**
 * The settings form read: from its fields' raw values to the settings to save, or the fields that
 * are wrong, each with the message that says so. Pure: no DOM, no storage.
 */
import { getValidBaseUrl } from "../../api/options";
import type { Lang } from "../../shared/messages";
import { BATCH_WINDOW, isBatchWindow, isGuardThreshold, type LinkedRefresh } from "../../shared/settings";
import type { TextKey } from "../i18n";

/** The form's fields as typed (or chosen). */
export interface SettingsFormFields {
  /** The service address; empty: the default address. */
  baseUrl: string;
  /** The batch window in ms; empty: the default. */
  batchWindow: string;
  /** "ro", "en", or anything else for Office's display language. */
  language: string;
  /** The credit guard's threshold in credits; empty: the guard is off. */
  guardThreshold: string;
  /** When Excel refreshes linked companies: "onLoad", or anything else for manual. */
  linkedRefresh?: string;
}

/** The fields that can be wrong, in the form's order (the first wrong one is the one the pane names). */
export const CHECKED_FIELDS = ["baseUrl", "batchWindow", "guardThreshold"] as const;
export type CheckedField = (typeof CHECKED_FIELDS)[number];

/** The settings to save; null for each: its default (the default address, the default window, Office's language, the guard off). */
export interface FormSettings {
  baseUrl: string | null;
  batchWindowMs: number | null;
  language: Lang | null;
  guardThreshold: number | null;
  linkedRefresh: LinkedRefresh;
}

export type SettingsFormResult =
  { ok: true; settings: FormSettings } | { ok: false; errors: Partial<Record<CheckedField, TextKey>>; first: CheckedField };

export function parseSettingsForm(fields: SettingsFormFields): SettingsFormResult {
  const errors: Partial<Record<CheckedField, TextKey>> = {};
  const urlText = fields.baseUrl.trim();
  if (urlText) {
    try {
      getValidBaseUrl(urlText);
    } catch {
      errors.baseUrl = "settings.badUrl";
    }
  }
  const windowText = fields.batchWindow.trim();
  const w = windowText === "" ? BATCH_WINDOW.default : Number(windowText);
  if (!Number.isInteger(w) || !isBatchWindow(w)) errors.batchWindow = "settings.badWindow";
  // Empty turns the guard off; a number must be a whole number of credits (the engine refuses others).
  const guardText = fields.guardThreshold.trim();
  const guard = guardText === "" ? null : Number(guardText);
  if (guard !== null && !isGuardThreshold(guard)) errors.guardThreshold = "settings.badGuard";

  const first = CHECKED_FIELDS.find((f) => errors[f] !== undefined);
  if (first) return { ok: false, errors, first };
  const lang = fields.language;
  return {
    ok: true,
    settings: {
      baseUrl: urlText || null,
      batchWindowMs: w === BATCH_WINDOW.default ? null : w,
      language: lang === "ro" || lang === "en" ? lang : null,
      guardThreshold: guard,
      linkedRefresh: fields.linkedRefresh === "onLoad" ? "onLoad" : "manual",
    },
  };
}
