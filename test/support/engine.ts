/**
 * An engine on a key of its own against a running sandbox, for the engine's tests: quick timers (a 5 ms
 * batch window, 5 ms between retries) unless `options` say otherwise, a fresh MemoryStore unless one is
 * given, and what the sandbox counted for that key.
 */
import { FirmaEngine, type EngineOptions } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import type { Sandbox } from "../../sandbox/server";

export function engineFor(sb: Sandbox, key: string, options: Partial<EngineOptions> = {}) {
  const store = (options.store as MemoryStore) ?? new MemoryStore();
  const engine = new FirmaEngine({ baseUrl: sb.url, apiKey: () => key, store, windowMs: 5, retryDelayMs: 5, ...options });
  return {
    key,
    store,
    engine,
    /** The credits the sandbox charged this key, in all. */
    charged: () => sb.usage(key).total,
    /** The credits the sandbox charged this key this month. */
    month: () => sb.usage(key).month,
    /** The requests the sandbox received with this key, in order. */
    requests: () => sb.requests.filter((r) => r.key === key),
  };
}
