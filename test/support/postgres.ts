/**
 * A throwaway PostgreSQL cluster for the tests: the real server (Debian's `postgresql` package,
 * which scripts/setup.sh installs), initialised in a temporary folder, listening on a free port of
 * 127.0.0.1 with trust authentication, and removed by stop(). PostgreSQL refuses to run as root, so
 * as root the folder is handed to the `postgres` user and the binaries run through `runuser`.
 */
import { execFile } from "child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "fs";
import { createServer } from "net";
import { tmpdir, userInfo } from "os";
import { join } from "path";
import { Client } from "pg";
import { promisify } from "util";

const run = promisify(execFile);

export interface PostgresCluster {
  port: number;
  /** `postgres://postgres@127.0.0.1:PORT/db` */
  url(db?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL as the superuser on one database. */
  sql(statement: string, db?: string): Promise<Array<Record<string, unknown>>>;
  /** `pg_ctl restart` (fast: the connections are cut), waiting until it takes connections again. */
  restart(): Promise<void>;
  /** Stops the server (fast), keeping its data: the database is away until start(). */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port, waiting until it takes connections. */
  start(): Promise<void>;
  /** Stops the server at once and removes its folder. */
  stop(): Promise<void>;
}

/** The folder with initdb and pg_ctl (the newest version under /usr/lib/postgresql), or null when PostgreSQL is not installed. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")) && existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], "bin") : null;
}

export async function startPostgres(bin = postgresBinDir()): Promise<PostgresCluster> {
  if (!bin) throw new Error("PostgreSQL is not installed (no initdb under /usr/lib/postgresql): run scripts/setup.sh");
  const dir = mkdtempSync(join(tmpdir(), "firma-pg-"));
  const data = join(dir, "data");
  const sockets = join(dir, "sock");
  mkdirSync(sockets);
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    for (const p of [dir, sockets]) chownSync(p, Number(stdout.trim()), Number(gid.trim()));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args]) : run(join(bin, tool), args);
  const port = await freePort();
  await pg("initdb", ["-D", data, "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const options = `-k ${sockets} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  await pg("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
  const url = (db = "postgres") => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const sql = async (statement: string, db?: string) => {
    const client = new Client({ connectionString: url(db) });
    await client.connect();
    try {
      return (await client.query(statement)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    sql,
    async createDatabase(name) {
      await sql(`CREATE DATABASE ${name}`);
      return url(name);
    },
    async restart() {
      await pg("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "-m", "fast", "restart"]);
    },
    async halt() {
      await pg("pg_ctl", ["-D", data, "-w", "-t", "60", "-m", "fast", "stop"]);
    },
    async start() {
      await pg("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
    },
    async stop() {
      await pg("pg_ctl", ["-D", data, "stop", "-m", "immediate"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP port nothing listens on now (and, closed at once, one that refuses connections). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
