/** `npm run sandbox`: the sandbox on 127.0.0.1, port from PORT (default 3001). */
import { PLANS } from "./plans";
import { startSandbox } from "./server";

function limits(name: keyof typeof PLANS): string {
  const p = PLANS[name];
  const credits = p.daily !== null ? `${p.daily} calls/day` : p.monthly !== null ? `${p.monthly} credits/month` : "unlimited";
  const history = p.historyYears === null ? "full history" : `${p.historyYears} year${p.historyYears > 1 ? "s" : ""} of history`;
  return `${credits}, ${history}`;
}

async function main(): Promise<void> {
  const port = process.env.PORT === undefined ? 3001 : Number(process.env.PORT);
  const sandbox = await startSandbox({ port, host: "127.0.0.1" });
  console.log(`FIRMA sandbox (Company Data Service API v4, local imitation) at ${sandbox.url}/v4`);
  console.log(`latest financial year: ${sandbox.config.latestYear}; controls: ${sandbox.url}/__sandbox/`);
  console.log("demo keys (send as X-API-Key; demo-<plan>-<anything> gets its own counter):");
  for (const name of Object.keys(PLANS) as Array<keyof typeof PLANS>) console.log(`  demo-${name.padEnd(11)} ${limits(name)}`);
  console.log(`ready in ${Math.round(performance.now())} ms`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
