/**
 * What the engine learned about a service where the documentation leaves it open, per service
 * address (a second service may answer differently): whether batch identification honours
 * `include` (O10), which fields batch financial items carry (O17), whether range entries carry
 * every field (O16), the latest year it answered with, whether name search folds diacritics (O30). Unknown stays undefined: the estimate then
 * counts the costlier case (estimate.ts) and the first call that shows the behaviour settles it.
 */
import type { FinancialField } from "../api/types";
import { KeyValueStore, readJson } from "./cache/store";

export interface Capabilities {
  include?: boolean;
  batchFinancialFields?: FinancialField[];
  rangeFull?: boolean;
  latestYear?: number;
  /** Whether name search ignores diacritics ("FAGET" finds "FĂGET"): one query form per name then (match/queries.ts, O30). */
  searchFolds?: boolean;
}

const STORAGE_KEY = "firma.caps.v2";

export class ServiceCapabilities {
  private byService: Record<string, Capabilities> = {};
  private loaded: Promise<void> | null = null;
  /** What the store holds, as last written (null: not written by this instance). */
  private saved: string | null = null;

  constructor(private readonly store: KeyValueStore) {}

  load(): Promise<void> {
    if (!this.loaded) {
      this.loaded = readJson<Record<string, Capabilities>>(this.store, STORAGE_KEY, {}).then((saved) => {
        for (const [k, v] of Object.entries(saved ?? {})) this.byService[k] = { ...v, ...this.byService[k] };
      });
    }
    return this.loaded;
  }

  /** The live record for a service address: the engine reads and sets its fields. */
  of(baseUrl: string): Capabilities {
    return (this.byService[baseUrl] ??= {});
  }

  /** Forgets what was learned about one service (it may have changed its behaviour). */
  forget(baseUrl: string): void {
    delete this.byService[baseUrl];
  }

  /**
   * Writes what was learned, when it changed since the last write: the engine saves after every
   * flush (a fill of 100,000 names: 1,000 flushes), and each write is a storage call to the host
   * (OfficeRuntime.storage) for facts that are settled after the first answers.
   */
  async save(): Promise<void> {
    const json = JSON.stringify(this.byService);
    if (json === this.saved) return;
    await this.store.setItem(STORAGE_KEY, json);
    this.saved = json;
  }
}
