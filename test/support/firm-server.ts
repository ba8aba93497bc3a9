/**
 * `firma serve` in custody mode as a deployer starts it, a real child process (`node bin/firma.js
 * serve --http … --key-file … --database …`), for the fault tests: its address, everything it printed
 * (stdout: one JSON line per request and the server's own log lines; stderr: the start-up lines), and
 * its end. A minimal built add-in (taskpane.html, the manifest, firma-build.json) stands in for dist/:
 * the server needs only a build's shape.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";

const ROOT = path.resolve(__dirname, "..", "..");

export interface FirmServer {
  url: string;
  child: ChildProcess;
  printed(): string;
  exited: Promise<NodeJS.Signals | number | null>;
  /** SIGTERM (a graceful stop), resolved once it ended. */
  stop(): Promise<void>;
}

/** taskpane.html, the manifest and firma-build.json in `dir`/dist: what `firma serve` checks for and serves. */
export function minimalDist(dir: string): string {
  const d = path.join(dir, "dist");
  const url = "https://addin.test.example.ro/";
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(d, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${url}taskpane.html"/></OfficeApp>`);
  fs.writeFileSync(path.join(d, "firma-build.json"), JSON.stringify({ addinUrl: url, serviceUrl: "", version: "0.1.0" }));
  return d;
}

export interface ServeOptions {
  keyFile: string;
  database: string;
  upstream: string;
  dist: string;
  /** Variables beside this process's own (FIRMA_SHARED_QUEUE=0). */
  env?: Record<string, string>;
  /** Resolve once it listens (default), or once it ends (a start that must fail). */
  until?: "listening" | "ended";
}

/** Starts `firma serve`; resolves once it says where it listens (or, with until "ended", once it ends). */
export function startFirmServer(o: ServeOptions): Promise<FirmServer> {
  const args = ["serve", "--http", "--host", "127.0.0.1", "--port", "0", "--key-file", o.keyFile];
  args.push("--database", o.database, "--upstream", o.upstream, "--dist", o.dist, "--lang", "en");
  const child = spawn(process.execPath, [path.join(ROOT, "bin", "firma.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, LANG: "en_US.UTF-8", ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.once("exit", (code, signal) => done(signal ?? code)));
  const server = (url: string): FirmServer => ({
    url,
    child,
    printed: () => out + err,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`firma serve did not start: ${err}`)), 90_000);
    child.stderr!.on("data", (b: Buffer) => {
      err += b.toString();
      const m = /serves the add-in at (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m && o.until !== "ended") {
        clearTimeout(timer);
        resolve(server(m[1]));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (o.until === "ended") resolve(server(""));
      else reject(new Error(`firma serve ended (${code}): ${err}`));
    });
  });
}

/** GET through the server with a token; the status, the JSON body and the headers. */
export async function ask(s: FirmServer, token: string, p: string): Promise<{ status: number; body: any; headers: Headers }> {
  const r = await fetch(s.url + p, { headers: { "X-API-Key": token } });
  const text = await r.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: r.status, body, headers: r.headers };
}

export async function until(what: () => boolean | Promise<boolean>, ms = 20_000, step = 50): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error("waited in vain");
    await new Promise((r) => setTimeout(r, step));
  }
}

/** Opens the firm's database at `db` for `work`, and closes it after (as a command would). */
export async function withFirmStore<T>(db: string, work: (s: FirmStore) => Promise<T>): Promise<T> {
  const s = await openFirmStore(db);
  try {
    return await work(s);
  } finally {
    await s.close();
  }
}

/** `real` with every call of its methods counted by name in `asked`: what a request asked of the database. */
export function countingStore(real: FirmStore): { store: FirmStore; asked: Map<string, number> } {
  const asked = new Map<string, number>();
  const store = new Proxy(real, {
    get: (target, prop, recv) => {
      const v: unknown = Reflect.get(target, prop, recv);
      if (typeof v !== "function") return v;
      asked.set(String(prop), (asked.get(String(prop)) ?? 0) + 1);
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store, asked };
}
