/**
 * The Office adapter for storage, used by both Office surfaces (the functions and the pane):
 * `OfficeRuntime.storage`, the shared runtime's store for add-in data, is preferred for the
 * settings and the cache — never the workbook (the key is the user's secret, not the document's).
 * https://learn.microsoft.com/javascript/api/office-runtime/officeruntime.storage
 */
import type { KeyValueStore } from "../engine/cache/store";
import { useAnswerStore } from "../shared/engine-instance";
import { preferStore } from "../shared/settings";
import { officePartitionKey, partitionedLocalStorage } from "./partitioned-storage";
import { TieredAnswerStore } from "./tiered-answers";

/** OfficeRuntime.storage when this runtime has it, else null. */
export function officeStorage(): KeyValueStore | null {
  return typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage ? OfficeRuntime.storage : null;
}

/** The page's localStorage, or null where there is none or it is blocked. */
function pageLocalStorage(): Storage | null {
  try {
    return typeof localStorage !== "undefined" && localStorage ? localStorage : null;
  } catch {
    return null; // a page whose storage is blocked throws on the read
  }
}

/**
 * Called by each Office surface as it loads, before anything reads the settings: the settings in
 * OfficeRuntime.storage, the answers there too and, where the runtime has it, in IndexedDB (tiered-answers.ts).
 * Where OfficeRuntime.storage is absent, localStorage partitioned by Office.context.partitionKey
 * (partitioned-storage.ts).
 */
export function useOfficeStorage(): void {
  const store = officeStorage();
  const ls = store ? null : pageLocalStorage();
  if (store) preferStore(store);
  else if (ls) preferStore(partitionedLocalStorage(ls, officePartitionKey));
  useAnswerStore((kv) => new TieredAnswerStore(kv));
}
