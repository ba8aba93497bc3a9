/**
 * The one engine of the add-in's runtime. The functions bundle and the pane bundle are loaded
 * into the same shared runtime page but are separate bundles, so the engine lives on globalThis
 * under a registered symbol: both see the same cache, meter and queue.
 */
import { FirmaEngine } from "../engine/engine";
import { getApiKey, getSettings, loadSettings, settingsStore } from "../taskpane/settings";

const KEY = Symbol.for("firma.engine");

/** The shared engine's promise as this bundle last saw it, and the engine once that promise has resolved. */
let seen: Promise<FirmaEngine> | undefined;
let ready: FirmaEngine | null = null;

/**
 * The shared engine if it is ready (a getEngine() of this bundle has resolved), else null: lets a
 * recalculation answered from the cache run without waiting for a promise.
 */
export function readyEngine(): FirmaEngine | null {
  return ready;
}

export function getEngine(): Promise<FirmaEngine> {
  const g = globalThis as unknown as Record<symbol, Promise<FirmaEngine> | undefined>;
  let p = g[KEY];
  if (!p) {
    p = loadSettings().then(() => {
      const engine = new FirmaEngine({
        baseUrl: () => getSettings().baseUrl,
        apiKey: getApiKey,
        store: settingsStore(),
        plan: () => getSettings().plan,
        windowMs: getSettings().batchWindowMs,
        // The credit guard holds a burst of recalculated cells past the user's limit (default 100 credits).
        guardThreshold: getSettings().guardThreshold,
      });
      return engine.ready().then(() => engine);
    });
    p.catch(() => {
      if (g[KEY] === p) g[KEY] = undefined;
    });
    g[KEY] = p;
  }
  if (p !== seen) {
    const mine = (seen = p);
    // Once resolved, the shared engine is never replaced (only a failed start is forgotten).
    mine.then(
      (engine) => {
        if (seen === mine) ready = engine;
      },
      () => undefined,
    );
  }
  return p;
}
