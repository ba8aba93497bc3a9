/**
 * `npm run demo`: FIRMA's main job on a machine without Excel. Starts the sandbox service,
 * refreshes examples/firma-exemplu.xlsx with the CLI (as a user would: `firma refresh …`), then
 * refreshes it again to show that the cache makes a second refresh free.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { main } from "../src/cli/main";
import { startSandbox } from "../sandbox/server";

async function demo(): Promise<number> {
  const example = resolve(__dirname, "../examples/firma-exemplu.xlsx");
  const sb = await startSandbox({ port: Number(process.env.PORT ?? 0), latencyMs: 30 });
  const cacheDir = mkdtempSync(join(tmpdir(), "firma-demo-"));
  const key = "demo-pro";
  try {
    console.log(`Sandbox: ${sb.url} (cheie/key ${key}, latență simulată 30 ms)\n`);
    console.log(`$ firma refresh examples/firma-exemplu.xlsx --key ${key} --base-url ${sb.url} --dry-run`);
    let code = await main(["refresh", example, "--key", key, "--base-url", sb.url, "--cache-dir", cacheDir, "--dry-run"]);
    console.log(`\n$ firma refresh examples/firma-exemplu.xlsx --key ${key} --base-url ${sb.url}`);
    code ||= await main(["refresh", example, "--key", key, "--base-url", sb.url, "--cache-dir", cacheDir]);
    console.log("\nA doua oară, cu cache-ul / Second time, with the cache:");
    code ||= await main(["refresh", example, "--key", key, "--base-url", sb.url, "--cache-dir", cacheDir, "--no-progress"]);
    console.log(`\nContorul sandbox-ului pentru ${key} / The sandbox's own counter: ${sb.usage(key).total} credite/credits`);
    console.log("Rezultatul / Output: examples/firma-exemplu.refreshed.xlsx");
    return code;
  } finally {
    await sb.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

demo().then(
  (c) => (process.exitCode = c),
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
