import { ChildProcess, spawn } from "child_process";
import { join } from "path";
import { timed } from "./testkit";
import { company, sampleCuis } from "../../sandbox/dataset";
import { startSandbox } from "../../sandbox/server";

const ROOT = join(__dirname, "..", "..");

/** Runs the `npm run sandbox` entry on a free port; resolves with its URL and the time it printed. */
function launch(child: ChildProcess): Promise<{ url: string; readyMs: number; output: string }> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+)\/v4/.exec(output);
      const ready = /ready in (\d+) ms/.exec(output);
      if (url && ready) resolve({ url: url[1], readyMs: Number(ready[1]), output });
    });
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
  });
}

describe("startup", () => {
  test("startSandbox listens within 300 ms (nothing is built up front)", async () => {
    const [sb, ms] = await timed(() => startSandbox({ port: 0 }));
    await sb.close();
    expect(ms).toBeLessThan(300);
  });

  test("the npm run sandbox entry prints its URL, the demo keys and 'ready in N ms' with N under 2,000", async () => {
    const child = spawn(join(ROOT, "node_modules", ".bin", "tsx"), ["sandbox/main.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "0" },
    });
    try {
      const { url, readyMs, output } = await launch(child);
      expect(readyMs).toBeLessThan(2000);
      for (const plan of ["free", "pro", "business", "enterprise"]) expect(output).toContain(`demo-${plan}`);
      // Another process, the same data.
      const [cui] = sampleCuis(1, 31337);
      const res = await fetch(`${url}/v4/firme/${cui}`, { headers: { "X-API-Key": "demo-pro" } });
      expect(await res.json()).toEqual(company(cui));
    } finally {
      child.kill("SIGTERM");
    }
  });

  test("closing a sandbox with a call still waiting on its latency does not hang", async () => {
    const sb = await startSandbox({ port: 0, latencyMs: 10_000 });
    const pending = fetch(`${sb.url}/v4/firme/${sampleCuis(1)[0]}`, {
      headers: { "X-API-Key": "demo-pro" },
    }).catch(() => "dropped");
    await new Promise((r) => setTimeout(r, 50));
    const [, ms] = await timed(() => sb.close());
    expect(ms).toBeLessThan(1000);
    expect(await pending).toBe("dropped");
  });
});
