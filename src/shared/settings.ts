/**
 * The user's settings (API key, service address), shared by the task pane and the functions.
 *
 * Stored through `OfficeRuntime.storage` when the Office surfaces offer it (src/office/storage.ts),
 * else `localStorage`, else memory (Node tests). The pane and the functions share this module (one
 * webpack runtime): what the pane saves, the next function call sees, without reading storage again.
 */
import type { PlanName } from "../api/types";
import { isPlanName } from "../engine/credits/subscription-plans";
import { MemoryStore, type KeyValueStore } from "../engine/cache/store";
import { withTimeout } from "../engine/cache/answer-store";
import { BATCH_WINDOW, DEFAULT_GUARD_THRESHOLD, isBatchWindow, isGuardThreshold } from "../engine/engine-options";
import type { Lang } from "./messages";

export const STORAGE_KEYS = {
  apiKey: "firma.apiKey",
  baseUrl: "firma.baseUrl",
  plan: "firma.plan",
  language: "firma.language",
  batchWindowMs: "firma.batchWindowMs",
  guardThreshold: "firma.guardThreshold",
  linkedRefresh: "firma.linkedRefresh",
  /** The last watch change the pane showed and the person marked seen, per firm's server and person (flows/watch-client.ts). */
  watchSeen: "firma.watchSeen",
} as const;

/**
 * When Excel refreshes linked companies by itself: "manual" (Data → Refresh All, the default) or
 * "onLoad" (when FIRMA loads and registers the Company domain; src/office/linked-domain.ts). No periodic
 * mode: credits are money.
 */
export type LinkedRefresh = "manual" | "onLoad";

export { BATCH_WINDOW, DEFAULT_GUARD_THRESHOLD, isBatchWindow, isGuardThreshold };
/** How "off" is stored: an absent key means the default, so "off" needs a value of its own. */
const GUARD_OFF = "off";

export interface Settings {
  /** null: no key saved yet (the client then refuses to call, with MissingKeyError). */
  apiKey: string | null;
  /** The service address; DEFAULT_BASE_URL unless the user set another. */
  baseUrl: string;
  /** The plan the user chose (null: use what the service reports, if anything). */
  plan: PlanName | null;
  /** Language of the pane and the cells' messages: the user's choice, else Office's display language if English, else Romanian. @default "ro" */
  language: Lang;
  /** The language the user chose in the pane; null: follow Office's display language. */
  languageChoice: Lang | null;
  /** Quiet time before queued cells are fetched together, within BATCH_WINDOW (engine/engine-options.ts). @default 40 */
  batchWindowMs: number;
  /**
   * The credit guard: credits one burst of recalculated cells may cost before FIRMA holds it and
   * asks in the pane; null = off. @default 100
   */
  guardThreshold: number | null;
  /** When Excel refreshes linked companies by itself (LinkedRefresh). @default "manual" */
  linkedRefresh: LinkedRefresh;
}

const DEFAULTS = (): Settings => ({
  apiKey: null,
  baseUrl: DEFAULT_BASE_URL,
  plan: null,
  language: shared().displayLanguage,
  languageChoice: null,
  batchWindowMs: BATCH_WINDOW.default,
  guardThreshold: DEFAULT_GUARD_THRESHOLD,
  linkedRefresh: "manual",
});

interface SharedState {
  store: KeyValueStore | null;
  current: Settings;
  loading: Promise<Settings> | null;
  /** Office's display language, as far as FIRMA speaks it ("ro" until the pane has told). */
  displayLanguage: Lang;
}

/**
 * The service address a fresh install uses: webpack's DefinePlugin sets FIRMA_DEFAULT_BASE_URL
 * (development: the local sandbox; production: FIRMA_SERVICE_URL, or "" for the add-in's own origin,
 * whose /v4 `firma serve` relays); outside webpack (Jest) the sandbox's.
 */
export const DEFAULT_BASE_URL: string =
  typeof FIRMA_DEFAULT_BASE_URL === "string" ? FIRMA_DEFAULT_BASE_URL || pageOrigin() : "http://127.0.0.1:3001";

/** The origin of the page the add-in runs in ("" where there is none). */
function pageOrigin(): string {
  try {
    return typeof location !== "undefined" && /^https?:$/.test(location.protocol) ? location.origin : "";
  } catch {
    return "";
  }
}

/** The settings of this runtime: one module instance for the functions and the pane (one webpack runtime). */
const state: SharedState = {
  store: null,
  current: {
    apiKey: null,
    baseUrl: DEFAULT_BASE_URL,
    plan: null,
    language: "ro",
    languageChoice: null,
    batchWindowMs: BATCH_WINDOW.default,
    guardThreshold: DEFAULT_GUARD_THRESHOLD,
    linkedRefresh: "manual",
  },
  loading: null,
  displayLanguage: "ro",
};

function shared(): SharedState {
  return state;
}

/** localStorage behind the async store interface. */
function localStorageStore(ls: Storage): KeyValueStore {
  return {
    getItem: async (key) => ls.getItem(key),
    setItem: async (key, value) => ls.setItem(key, value),
    removeItem: async (key) => ls.removeItem(key),
  };
}

/**
 * The store when none was chosen: localStorage, else memory (Node). Inside Office the surfaces
 * choose OfficeRuntime.storage first (src/office/storage.ts, preferStore).
 */
export function defaultStore(): KeyValueStore {
  try {
    if (typeof localStorage !== "undefined" && localStorage) return localStorageStore(localStorage);
  } catch {
    // localStorage can throw when the page's storage is blocked
  }
  return new MemoryStore(); // Node, when neither OfficeRuntime nor localStorage exist
}

/** The store in use (chosen on first use). */
export function settingsStore(): KeyValueStore {
  const s = shared();
  if (!s.store) s.store = defaultStore();
  return s.store;
}

/**
 * The store to use when none is in use yet (the Office surfaces offer OfficeRuntime.storage at
 * start, before anything is loaded); a store already chosen stays.
 */
export function preferStore(store: KeyValueStore): void {
  const s = shared();
  if (!s.store) s.store = store;
}

/** Replaces the store (tests) and forgets what was loaded. */
export function useStore(store: KeyValueStore): void {
  const s = shared();
  s.store = store;
  s.loading = null;
  s.current = DEFAULTS();
}

function clean(value: string | null | undefined): string | null {
  const v = (value ?? "").trim();
  return v === "" ? null : v;
}

/** How long a settings read may take before it counts as failed (as the answer store's reads). */
const SETTINGS_READ_TIMEOUT_MS = 3000;

/** Reads the settings from storage once per runtime; later calls return the same promise. */
export function loadSettings(): Promise<Settings> {
  const s = shared();
  if (!s.loading) {
    const store = settingsStore();
    // A read may never settle ("In the event the Promise does not resolve…", OfficeRuntime.storage.getItem;
    // office-js #1058): after 3 s it fails like a read that failed, and the next use reads again.
    s.loading = Promise.all(Object.values(STORAGE_KEYS).map((k) => withTimeout(store.getItem(k), SETTINGS_READ_TIMEOUT_MS, "read"))).then(
      ([apiKey, baseUrl, plan, language, windowMs, guard, linked]) => {
        const w = Number(windowMs);
        const choice = language === "en" || language === "ro" ? language : null;
        s.current = {
          apiKey: clean(apiKey),
          baseUrl: clean(baseUrl) ?? DEFAULT_BASE_URL,
          plan: isPlanName(plan) ? plan : null,
          language: choice ?? s.displayLanguage,
          languageChoice: choice,
          batchWindowMs: windowMs !== null && isBatchWindow(w) ? w : BATCH_WINDOW.default,
          guardThreshold: parseGuardThreshold(guard),
          linkedRefresh: linked === "onLoad" ? "onLoad" : "manual",
        };
        return s.current;
      },
      (err: unknown) => {
        s.loading = null; // try again next time
        throw err;
      },
    );
  }
  return s.loading;
}

/** The settings as last loaded or saved (defaults before loadSettings has finished). */
export function getSettings(): Settings {
  return shared().current;
}

/** The API key, read at each call by the client. */
export function getApiKey(): string | null {
  return shared().current.apiKey;
}

/** Saves the key (trimmed); an empty or null key removes it. */
export async function saveApiKey(key: string | null): Promise<void> {
  await loadSettings();
  const value = clean(key);
  const store = settingsStore();
  if (value === null) await store.removeItem(STORAGE_KEYS.apiKey);
  else await store.setItem(STORAGE_KEYS.apiKey, value);
  const s = shared();
  s.current = { ...s.current, apiKey: value };
}

/** Saves the service address; empty or null goes back to the default. */
export async function saveBaseUrl(url: string | null): Promise<void> {
  await loadSettings();
  const value = clean(url);
  const store = settingsStore();
  if (value === null) await store.removeItem(STORAGE_KEYS.baseUrl);
  else await store.setItem(STORAGE_KEYS.baseUrl, value);
  const s = shared();
  s.current = { ...s.current, baseUrl: value ?? DEFAULT_BASE_URL };
}

/** Saves the plan, language, batch window or linked refresh (null: back to the default; for the language, Office's). */
export async function saveSetting<K extends "plan" | "language" | "batchWindowMs" | "linkedRefresh">(
  name: K,
  value: Settings[K] | null,
): Promise<void> {
  await loadSettings();
  const store = settingsStore();
  if (value === null) await store.removeItem(STORAGE_KEYS[name]);
  else await store.setItem(STORAGE_KEYS[name], String(value));
  const s = shared();
  if (name === "language") {
    const choice = value as Lang | null;
    s.current = { ...s.current, language: choice ?? s.displayLanguage, languageChoice: choice };
  } else {
    s.current = { ...s.current, [name]: value ?? DEFAULTS()[name] };
  }
}

/** The stored threshold: "off" → null; a whole number ≥ 0 → it; absent or unreadable → the default. */
export function parseGuardThreshold(stored: string | null | undefined): number | null {
  if (stored === GUARD_OFF) return null;
  const n = Number(stored);
  return stored !== null && stored !== undefined && stored.trim() !== "" && isGuardThreshold(n) ? n : DEFAULT_GUARD_THRESHOLD;
}

/** Saves the credit guard's threshold (null: off). The default is stored as nothing, like the other settings. */
export async function saveGuardThreshold(threshold: number | null): Promise<void> {
  await loadSettings();
  const store = settingsStore();
  if (threshold === DEFAULT_GUARD_THRESHOLD) await store.removeItem(STORAGE_KEYS.guardThreshold);
  else await store.setItem(STORAGE_KEYS.guardThreshold, threshold === null ? GUARD_OFF : String(threshold));
  const s = shared();
  s.current = { ...s.current, guardThreshold: threshold };
}

/** FIRMA's language for an Office display language ("en-US" → "en"; anything else → "ro"). */
export function languageFor(officeLanguage: string | null | undefined): Lang {
  return typeof officeLanguage === "string" && /^en\b/i.test(officeLanguage.trim()) ? "en" : "ro";
}

/**
 * Tells the settings Office's display language (the pane does, from Office.context.displayLanguage):
 * when the user has not chosen a language, the pane and the cells' messages follow it.
 */
export function setDisplayLanguage(officeLanguage: string | null | undefined): void {
  const s = shared();
  s.displayLanguage = languageFor(officeLanguage);
  if (s.current.languageChoice === null) s.current = { ...s.current, language: s.displayLanguage };
}
