/**
 * The sandbox in a process of its own, so that its work (generating answers) does not share the
 * benchmark's event loop and CPU: the benchmark measures the add-in, the service is "elsewhere".
 * Started by run.ts with fork(); reports its address over IPC and stops when the parent goes.
 * Counters and settings are read and changed through the sandbox's HTTP controls (/__sandbox/).
 */
import { startSandbox } from "../sandbox/server";

async function main(): Promise<void> {
  const latencyMs = Number(process.env.FIRMA_BENCH_LATENCY_MS ?? 100);
  const sb = await startSandbox({ port: 0, latencyMs });
  process.send?.({ url: sb.url });
  process.on("disconnect", () => void sb.close().then(() => process.exit(0)));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
