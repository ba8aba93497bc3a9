/**
 * The heap a waiting cell costs the BUILT add-in, measured in a process of its own (started by
 * test/functions/pending-heap.test.ts with `node --expose-gc`, so that Jest's heap does not blur it).
 *
 * The functions bundle is loaded into the Excel stand-in; 10,000 cells of FIRMA.DENUMIRE, each a
 * company not cached, are invoked the way Excel's runtime calls a custom function — the associated
 * function with its argument and an invocation object — against a service (FIRMA_HEAP_SERVICE) that
 * takes far longer to answer than the measurement lasts, so every cell is still waiting. Heap after
 * a full collection, before and after, divided by the cells: printed as one JSON line.
 */
import { ExcelStandIn, StandInStorage } from "./excel-runtime";

const gc = (globalThis as { gc?: () => void }).gc;
const CELLS = Number(process.env.FIRMA_HEAP_CELLS ?? 10_000);

async function main(): Promise<void> {
  if (!gc) throw new Error("run with node --expose-gc");
  const storage = new StandInStorage();
  storage.data.set("firma.guardThreshold", "off"); // a confirmed fill: the guard would hold it unsent
  storage.data.set("firma.apiKey", `demo-enterprise-heap-${Date.now()}`);
  storage.data.set("firma.baseUrl", process.env.FIRMA_HEAP_SERVICE!);
  const xl = new ExcelStandIn(storage, process.env.FIRMA_DIST);
  const denumire = xl.associated.get("DENUMIRE")!;
  await xl.call("DENUMIRE", ["RO123"]); // the engine loaded, the code warm (a bad CUI: no call)
  // Distinct valid CUIs that no test data depends on (a control digit computed, not guessed).
  const cuis: number[] = [];
  for (let base = 7_000_001; cuis.length < CELLS; base++) cuis.push(withControlDigit(base));
  const invocations = cuis.map(() => ({}));
  const args = cuis.map((c) => [[c]]);
  const pending: unknown[] = new Array(CELLS);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < CELLS; i++) pending[i] = denumire(args[i], invocations[i]);
  await new Promise((r) => setTimeout(r, 500)); // the quiet window has passed: batches are planned and in flight
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  process.stdout.write(JSON.stringify({ cells: CELLS, bytesPerWaitingCell: Math.round((after - before) / CELLS) }) + "\n");
  process.exit(0);
}

/** The CUI with `base`'s control digit (src/api/cui.ts's rule, repeated here: the child reads no source). */
function withControlDigit(base: number): number {
  const w = [7, 5, 3, 2, 1, 7, 5, 3, 2];
  const d = String(base).padStart(9, "0");
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(d[i]) * w[i];
  const c = (sum * 10) % 11;
  return base * 10 + (c === 10 ? 0 : c);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
