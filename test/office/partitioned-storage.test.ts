/**
 * Where OfficeRuntime.storage is absent, the add-in keeps its settings (the key among them) in
 * localStorage partitioned by Office.context.partitionKey, as Microsoft's page requires
 * (https://learn.microsoft.com/office/dev/add-ins/develop/persisting-add-in-state-and-settings#storage-partitioning).
 */
import { partitionedLocalStorage } from "../../src/office/partitioned-storage";

/** A page's localStorage: one map shared by everything on the origin. */
function pageStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, String(v)),
    removeItem: (k: string) => void data.delete(k),
  };
}

test("two partitions on one origin do not see each other's data; each key carries its partition", async () => {
  const ls = pageStorage();
  const a = partitionedLocalStorage(ls, async () => "partition-a");
  const b = partitionedLocalStorage(ls, async () => "partition-b");
  await a.setItem("firma.apiKey", "key-of-a");
  expect(await a.getItem("firma.apiKey")).toBe("key-of-a");
  expect(await b.getItem("firma.apiKey")).toBeNull();
  expect([...ls.data.keys()]).toEqual(["partition-afirma.apiKey"]);
  await a.removeItem("firma.apiKey");
  expect(ls.data.size).toBe(0);
});

test("where Office does not partition (the key is undefined), keys are used as they are", async () => {
  const ls = pageStorage();
  const s = partitionedLocalStorage(ls, async () => undefined);
  await s.setItem("firma.settings", "{}");
  expect([...ls.data.keys()]).toEqual(["firma.settings"]);
});

test("the surfaces' start-up chooses partitioned localStorage when OfficeRuntime.storage is absent", async () => {
  const ls = pageStorage();
  const g = globalThis as Record<string, unknown>;
  const saved = { Office: g.Office, OfficeRuntime: g.OfficeRuntime, localStorage: g.localStorage };
  let ready!: () => void;
  const initialized = new Promise<void>((r) => (ready = r));
  Object.assign(g, {
    localStorage: ls,
    OfficeRuntime: undefined,
    Office: { onReady: () => initialized, context: { partitionKey: "excel-web-1" } },
  });
  try {
    await jest.isolateModulesAsync(async () => {
      const { useOfficeStorage } = await import("../../src/office/storage");
      const { settingsStore } = await import("../../src/shared/settings");
      useOfficeStorage();
      const write = settingsStore().setItem("firma.apiKey", "secret");
      await new Promise((r) => setTimeout(r, 10));
      expect(ls.data.size).toBe(0); // nothing is written before Office says which partition this is
      ready();
      await write;
      expect([...ls.data.keys()]).toEqual(["excel-web-1firma.apiKey"]);
    });
  } finally {
    Object.assign(g, saved);
  }
});
