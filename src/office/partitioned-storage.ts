/**
 * localStorage as the add-in's store where OfficeRuntime.storage is absent, partitioned as Microsoft's
 * page requires: "any private data should be stored in partitioned localStorage. Office.context.partitionKey
 * provides a key for use with local storage", and it "is undefined in environments without partitioning"
 * (https://learn.microsoft.com/office/dev/add-ins/develop/persisting-add-in-state-and-settings#storage-partitioning).
 * Each key is prefixed with the partition key where there is one, as the page's example does, and used
 * as it is where there is none. The key is known once Office is initialized, so every access waits for it.
 */
import type { KeyValueStore } from "../engine/cache/store";

export function partitionedLocalStorage(ls: Storage, partitionKey: () => Promise<string | undefined>): KeyValueStore {
  let prefix: Promise<string> | null = null;
  const keyOf = async (key: string) =>
    (await (prefix ??= partitionKey().then(
      (p) => p ?? "",
      () => "",
    ))) + key;
  return {
    getItem: async (key) => ls.getItem(await keyOf(key)),
    setItem: async (key, value) => ls.setItem(await keyOf(key), value),
    removeItem: async (key) => ls.removeItem(await keyOf(key)),
  };
}

/** Office.context.partitionKey once Office is ready (undefined where Office does not partition). */
export async function officePartitionKey(): Promise<string | undefined> {
  if (typeof Office === "undefined") return undefined;
  await Office.onReady();
  return Office.context?.partitionKey || undefined;
}
