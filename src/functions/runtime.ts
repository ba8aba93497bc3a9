/**
 * The one engine of the add-in's runtime. The functions bundle and the pane bundle are loaded
 * into the same shared runtime page but are separate bundles, so the engine lives on globalThis
 * under a registered symbol: both see the same cache, meter and queue.
 */
import { FirmaEngine } from "../engine/engine";
import { getApiKey, getSettings, loadSettings, settingsStore } from "../taskpane/settings";

const KEY = Symbol.for("firma.engine");

export async function getEngine(): Promise<FirmaEngine> {
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
      });
      return engine.ready().then(() => engine);
    });
    p.catch(() => {
      if (g[KEY] === p) g[KEY] = undefined;
    });
    g[KEY] = p;
  }
  return p;
}
