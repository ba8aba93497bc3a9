/**
 * The Office adapter for storage, used by both Office surfaces (the functions and the pane):
 * `OfficeRuntime.storage`, the shared runtime's store for add-in data, is preferred for the
 * settings and the cache — never the workbook (the key is the user's secret, not the document's).
 * https://learn.microsoft.com/javascript/api/office-runtime/officeruntime.storage
 */
import type { KeyValueStore } from "../engine/cache/store";
import { useAnswerStore } from "../shared/engine-instance";
import { preferStore } from "../shared/settings";
import { TieredAnswerStore } from "./tiered-answers";

/** OfficeRuntime.storage when this runtime has it, else null. */
export function officeStorage(): KeyValueStore | null {
  return typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage ? OfficeRuntime.storage : null;
}

/**
 * Called by each Office surface as it loads, before anything reads the settings: the settings in
 * OfficeRuntime.storage, the answers there too and, where the runtime has it, in IndexedDB (tiered-answers.ts).
 */
export function useOfficeStorage(): void {
  const store = officeStorage();
  if (store) preferStore(store);
  useAnswerStore((kv) => new TieredAnswerStore(kv));
}
