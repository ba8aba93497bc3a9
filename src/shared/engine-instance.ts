/**
 * The one engine of the add-in's runtime. The functions and the pane are two webpack entries of one
 * build with one webpack runtime (webpack.config.js, `runtimeChunk: "single"`), loaded by the same
 * shared-runtime page: this module is instantiated once, so both get the same engine, cache, meter
 * and queue through the module system.
 */
import { FirmaEngine } from "../engine/engine";
import { hasAnswerStore, type AnswerStore, type KeyValueStore, type KeyValueStoreWithAnswers } from "../engine/cache/store";
import { getApiKey, getSettings, loadSettings, settingsStore } from "./settings";

/** Makes the store of the add-in's answers over the settings' store (src/office: IndexedDB beside it); null: the engine's own. */
let answersOver: ((kv: KeyValueStore) => AnswerStore) | null = null;

/** Called by the Office surfaces as they load, before the engine starts (src/office/storage.ts). */
export function useAnswerStore(make: ((kv: KeyValueStore) => AnswerStore) | null): void {
  answersOver = make;
}

function withAnswers(kv: KeyValueStore): KeyValueStore {
  if (!answersOver || hasAnswerStore(kv)) return kv;
  const store: KeyValueStoreWithAnswers = {
    getItem: (key) => kv.getItem(key),
    setItem: (key, value) => kv.setItem(key, value),
    removeItem: (key) => kv.removeItem(key),
    answers: answersOver(kv),
  };
  return store;
}

/** The engine's start, once begun (a failed start is forgotten so that the next call tries again). */
let started: Promise<FirmaEngine> | undefined;
/** The engine once its start has resolved. */
let ready: FirmaEngine | null = null;

/**
 * The engine if it is ready (getEngine() has resolved), else null: lets a
 * recalculation answered from the cache run without waiting for a promise.
 */
export function readyEngine(): FirmaEngine | null {
  return ready;
}

export function getEngine(): Promise<FirmaEngine> {
  let p = started;
  if (!p) {
    p = loadSettings().then(() => {
      const engine = new FirmaEngine({
        baseUrl: () => getSettings().baseUrl,
        apiKey: getApiKey,
        store: withAnswers(settingsStore()),
        plan: () => getSettings().plan,
        windowMs: getSettings().batchWindowMs,
        // The credit guard holds a burst of recalculated cells past the user's limit (default 100 credits).
        guardThreshold: getSettings().guardThreshold,
      });
      return engine.ready().then(() => engine);
    });
    const mine = p;
    started = p;
    // Once resolved, the engine is never replaced (only a failed start is forgotten).
    p.then(
      (engine) => {
        if (started === mine) ready = engine;
      },
      () => {
        if (started === mine) started = undefined;
      },
    );
  }
  return p;
}
