/**
 * `firma serve`: the add-in's own server, for a firm that puts FIRMA in front of its people.
 * It serves the built add-in (dist/) and its manifest for `--public-url`, and relays the API on the
 * same origin (relay.ts), so the service need not allow calls from a browser. A fourth surface beside
 * the functions, the pane and `firma refresh`: it uses src/api, src/engine and src/shared, never the
 * other surfaces. Start-up problems (a certificate that cannot be read, a port in use, no build, an
 * upstream that cannot be reached) are one line each and exit 1, with nothing left listening.
 */
import { Command, CommanderError, Option } from "commander";
import { existsSync, readFileSync } from "fs";
import { homedir } from "os";
import { join, resolve } from "path";
import { Socket } from "net";
import { getValidBaseUrl, isLoopbackHost } from "../api/options";
import { t, type Lang } from "../shared/messages/node";
import { commandWords } from "../shared/command-words";
import { buildApp, closeIdleConnections, readBuild } from "./app";
import { custodySettings, openCustodyStore, type CustodyFlags } from "./firm/custody-setup";
import { describeDatabase } from "./firm/open-store";
import { GOVERNOR_DEFAULTS } from "./upstream-governor";
import type { FirmStore } from "./firm/firm-store";
import { parseBudget } from "./firm/tokens";
import { DEFAULT_SCHEDULE, parseSchedule } from "./firm/watch-cost";
import type { AfterCheck } from "./firm/watch-check";
import { watchLeaseMs } from "./firm/watch-run";
import { Metrics } from "./firm/metrics";
import { describeSmtp, smtpSettings, withAlertOptions, type AlertFlags } from "./firm/watch-alert-options";
import { Deliverer } from "./firm/watch-deliver";
import { AlertMailer } from "./firm/watch-mail";
import { logLines } from "./log-lines";

export interface ServeIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
  /** Starts the sandbox service in this process (the `--sandbox` option); injected by bin/firma.js. */
  startSandbox?: () => Promise<{ url: string; close(): Promise<void> }>;
  /** Opens the firm's database in custody mode (tests inject one); openFirmStore by default. */
  openStore?: (url: string) => Promise<FirmStore>;
  /** After each committed check of a watch list: the alerts' delivery (custody mode). */
  afterCheck?: AfterCheck;
}

interface Flags extends CustodyFlags, AlertFlags {
  host: string;
  port: number;
  publicUrl?: string;
  upstream?: string;
  sandbox?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  http?: boolean;
  trustProxy?: boolean;
  upstreamConcurrency: number;
  dist: string;
  lang?: Lang;
  watchSchedule?: string;
  watchBudget?: string;
  accessLog?: boolean;
}

/** How often `firma serve` looks for alerts due (the checks also wake it as they commit). */
const DELIVER_EVERY_MS = 30_000;

/** A running server, for the tests and for the signal handlers. */
export interface Running {
  url: string;
  /** The watch's deliverer in custody mode (a check kicks it after committing); null otherwise. */
  deliverer: Deliverer | null;
  close(): Promise<void>;
}

function langOf(argv: readonly string[], env: ServeIo["env"]): Lang {
  const i = argv.indexOf("--lang");
  const v = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith("--lang="))?.slice(7);
  if (v === "en" || v === "ro") return v;
  return /^en/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || "") ? "en" : "ro";
}

/** An http address on this computer (isLoopbackHost): a public address the add-in may use only there. */
function isLoopbackHttp(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "http:" && isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

/** Whether something answers TCP on the upstream's host and port: no HTTP request, so no credit. */
function reachable(url: string, timeoutMs = 5_000): Promise<string | null> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  return new Promise((done) => {
    const s = new Socket();
    const end = (why: string | null) => {
      s.destroy();
      done(why);
    };
    s.setTimeout(timeoutMs, () => end("timeout"));
    s.once("error", (e: NodeJS.ErrnoException) => end(e.code ?? e.message));
    s.connect(port, u.hostname.replace(/^\[|\]$/g, ""), () => end(null));
  });
}

/** The development certificate office-addin-dev-certs made (`npx office-addin-dev-certs install`), read as it is. */
function devCertificate(): { key: Buffer; cert: Buffer } | null {
  const dir = join(homedir(), ".office-addin-dev-certs");
  const key = join(dir, "localhost.key");
  const cert = join(dir, "localhost.crt");
  return existsSync(key) && existsSync(cert) ? { key: readFileSync(key), cert: readFileSync(cert) } : null;
}

/**
 * The watch lists' settings of custody mode: `--watch-schedule` (a cron expression, Romanian time; the
 * message shows the expected form), `--watch-budget N`, and FIRMA_WATCH_LEASE_MS (how long a killed
 * instance's check waits before another takes it over, 30 s by default).
 */
function watchSettings(
  f: Flags,
  env: ServeIo["env"],
  custody: boolean,
  die: (key: Parameters<typeof t>[1], params?: Record<string, string | number>) => Error,
): { defaultSchedule: string; budget: number | null; leaseMs: number } | null {
  if (!custody) {
    if (f.watchSchedule !== undefined || f.watchBudget !== undefined) throw die("serve.custodyOnly");
    return null;
  }
  const schedule = (f.watchSchedule ?? DEFAULT_SCHEDULE).trim().replace(/\s+/g, " ");
  const s = parseSchedule(schedule);
  if (!s.ok) throw die("watch.badSchedule", { value: f.watchSchedule ?? "", reason: s.reason });
  let budget: number | null = null;
  if (f.watchBudget !== undefined) {
    budget = parseBudget(f.watchBudget);
    if (budget === null) throw die("watch.badBudget", { value: f.watchBudget.slice(0, 20) });
  }
  return { defaultSchedule: schedule, budget, leaseMs: watchLeaseMs(env) };
}

/** Parses, checks, starts; resolves to the running server, or rejects with a one-line ServeError. */
export async function serve(argv: string[], io: ServeIo): Promise<Running> {
  const lang = langOf(argv, io.env);
  const die = (key: Parameters<typeof t>[1], params: Record<string, string | number> = {}) =>
    Object.assign(new Error(t(lang, key, params)), { name: "ServeError" });
  // Commander's own words (Usage:, its errors) in the user's language too.
  const words = commandWords(lang, { writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  const program = new Command("firma serve")
    .description(t(lang, "serve.help.description"))
    .exitOverride()
    .configureHelp(words.help)
    .configureOutput(words.output)
    .helpOption("-h, --help", t(lang, "cli.help.help"))
    .addOption(new Option("--host <host>", t(lang, "serve.help.host")).default("127.0.0.1"))
    .addOption(
      new Option("--port <port>", t(lang, "serve.help.port")).default(3000).argParser((v) => {
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw die("serve.badPort", { value: v });
        return n;
      }),
    )
    .addOption(new Option("--public-url <url>", t(lang, "serve.help.publicUrl")))
    .addOption(new Option("--upstream <url>", t(lang, "serve.help.upstream")).env("FIRMA_UPSTREAM_URL"))
    .addOption(new Option("--sandbox", t(lang, "serve.help.sandbox")))
    .addOption(
      new Option("--upstream-concurrency <n>", t(lang, "serve.help.upstreamConcurrency"))
        .default(GOVERNOR_DEFAULTS.ceiling)
        .argParser((v) => {
          const n = Number(v);
          if (!/^\d+$/.test(v) || n < 1 || n > 1000) throw die("serve.badUpstreamConcurrency", { value: v.slice(0, 20) });
          return n;
        }),
    )
    .addOption(new Option("--tls-cert <file>", t(lang, "serve.help.tlsCert")))
    .addOption(new Option("--tls-key <file>", t(lang, "serve.help.tlsKey")))
    .addOption(new Option("--http", t(lang, "serve.help.http")))
    .addOption(new Option("--trust-proxy", t(lang, "serve.help.trustProxy")))
    .addOption(new Option("--access-log", t(lang, "serve.help.accessLog")))
    .addOption(new Option("--dist <dir>", t(lang, "serve.help.dist")).default(join(__dirname, "..", "..", "dist")))
    .addOption(new Option("--lang <lang>", t(lang, "serve.help.lang")).choices(["ro", "en"]))
    .addOption(new Option("--key-file <file>", t(lang, "serve.help.keyFile")))
    .addOption(new Option("--database <url>", t(lang, "serve.help.database")))
    .addOption(new Option("--max-credits-per-day <n>", t(lang, "serve.help.maxCreditsPerDay")))
    .addOption(new Option("--rate-limit <n>", t(lang, "serve.help.rateLimit")))
    .addOption(new Option("--db-pool <n>", t(lang, "serve.help.dbPool")))
    .addOption(new Option("--watch-schedule <cron>", t(lang, "serve.help.watchSchedule")))
    .addOption(new Option("--watch-budget <credits>", t(lang, "serve.help.watchBudget")));
  withAlertOptions(program, lang);
  program.parse(argv, { from: "user" });
  const f = program.opts<Flags>();

  // ---- everything checked before anything listens --------------------------------------------
  const dist = resolve(f.dist);
  if (!existsSync(join(dist, "taskpane.html")) || !existsSync(join(dist, "firma-build.json"))) throw die("serve.noDist", { dir: dist });
  const build = readBuild(dist);
  if ((f.tlsCert === undefined) !== (f.tlsKey === undefined)) throw die("serve.tlsPair");
  if (f.http && f.tlsCert) throw die("serve.httpAndTls");
  let https: { key: Buffer; cert: Buffer } | null = null;
  if (f.tlsCert && f.tlsKey) {
    for (const file of [f.tlsCert, f.tlsKey]) {
      try {
        readFileSync(file);
      } catch (e) {
        throw die("serve.badTls", { file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
      }
    }
    https = { cert: readFileSync(f.tlsCert), key: readFileSync(f.tlsKey) };
  } else if (!f.http) {
    https = devCertificate();
    if (!https) throw die("serve.noDevCert");
  }
  const scheme = https ? "https" : "http";
  const shownHost = f.host.includes(":") && !f.host.startsWith("[") ? `[${f.host}]` : f.host;
  // The public address: as given, else the build's; a build for this computer (https://localhost:…) is
  // reached at the port this server gets.
  const local = f.publicUrl === undefined && /^https:\/\/localhost[:/]/.test(build.addinUrl);
  let publicUrl = f.publicUrl ?? build.addinUrl;
  if (!/^https:\/\//.test(publicUrl) && !isLoopbackHttp(publicUrl)) throw die("serve.badPublicUrl", { url: publicUrl });
  if (!publicUrl.endsWith("/")) publicUrl += "/";
  if (f.sandbox && f.upstream) throw die("serve.sandboxAndUpstream");
  // Custody mode: the firm's key read once (never shown), the database opened before anything listens.
  const custody = custodySettings(f, io.env, die);
  const watch = watchSettings(f, io.env, custody !== null, die);
  if (custody && !f.sandbox && !f.upstream) throw die("serve.custodyNeedsUpstream");
  // The watch's e-mail alerts: the SMTP server read once, its password kept in memory only.
  const smtp = smtpSettings(f, io.env, die);
  if (smtp && !custody) throw die("alert.smtpCustodyOnly");
  let upstream = f.upstream ?? "";
  let sandbox: { url: string; close(): Promise<void> } | null = null;
  if (!f.sandbox && !upstream) {
    // `firma serve` alone serves the add-in (its pages and manifest can be checked); the relay says
    // plainly that no service is configured until --upstream is given.
    io.stderr.write(`${t(lang, "serve.noUpstream")}\n`);
  } else if (!f.sandbox) {
    try {
      getValidBaseUrl(upstream);
    } catch {
      throw die("serve.badUpstream", { url: upstream });
    }
    const why = await reachable(upstream);
    if (why) throw die("serve.upstreamUnreachable", { url: upstream, reason: why });
  }
  if (f.http && !isLoopbackHost(f.host)) {
    io.stderr.write(`${t(lang, "serve.httpWarning", { host: f.host })}\n`);
  }

  // ---- start ----------------------------------------------------------------------------------
  const store = custody
    ? await openCustodyStore(
        custody.database,
        die,
        io.openStore,
        (key, params) => io.stderr.write(`${t(lang, key, params)}\n`),
        custody.dbPool,
      )
    : null;
  if (f.sandbox) {
    if (!io.startSandbox) throw die("serve.noSandbox");
    sandbox = await io.startSandbox();
    upstream = sandbox.url;
  }
  const metrics = new Metrics();
  // Written once per turn (log-lines.ts); what is left is written on close or when the process exits.
  const log = logLines((s) => io.stdout.write(s));
  // Made once the server listens (it logs through it); a check that commits before then is delivered by its first pass.
  let deliverer: Deliverer | null = null;
  const app = await buildApp({
    dist,
    publicUrl: () => publicUrl,
    upstream,
    https,
    trustProxy: !!f.trustProxy,
    upstreamConcurrency: f.upstreamConcurrency,
    // JSON lines (pino); never a header, so never the key. One per request (method, URL, status, time)
    // in relay mode, where nothing else records them; in custody mode the audit trail records every API
    // request, so those lines only with --access-log (they cost the server time under load).
    logger: { level: "info", stream: log } as never,
    accessLog: !custody || !!f.accessLog,
    custody:
      custody && store
        ? {
            store,
            key: custody.key,
            maxCreditsPerDay: custody.maxCreditsPerDay,
            rateLimit: custody.ratePerSecond > 0 ? { max: custody.ratePerSecond * 10, windowMs: 10_000 } : null,
            shareQueue: io.env.FIRMA_SHARED_QUEUE !== "0",
            // After each committed check: its alerts go out at once (the deliverer's own timer would find them too).
            watch: watch && {
              ...watch,
              afterCheck: async (list, changes, result) => {
                await io.afterCheck?.(list, changes, result);
                deliverer?.kick();
              },
            },
            metrics,
          }
        : null,
  });
  try {
    await app.listen({ host: f.host, port: f.port });
  } catch (e) {
    await app.close().catch(() => undefined);
    await sandbox?.close();
    await store?.close().catch(() => undefined);
    log.flush();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw die("serve.portInUse", { host: f.host, port: String(f.port) });
    if (code === "EACCES") throw die("serve.portDenied", { host: f.host, port: String(f.port) });
    throw die("serve.listenFailed", { reason: code ?? String(e) });
  }
  process.on("exit", log.flush);
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : f.port;
  const url = `${scheme}://${shownHost}:${port}/`;
  if (local) publicUrl = `${scheme}://localhost:${port}/`;
  if (custody) io.stderr.write(`${t(lang, "serve.custodyOn", { database: describeDatabase(custody.database) })}\n`);
  // The watch's alerts: whatever the checks committed goes out from here (watch-deliver.ts).
  const mailer = smtp ? new AlertMailer(smtp) : null;
  deliverer = store
    ? new Deliverer({
        store,
        mailer,
        onOutcome: (target, outcome) => metrics.delivery(target, outcome),
        onError: (e) => app.log.error({ err: { message: (e as Error)?.message } }, "watch delivery failed; tried again later"),
      })
    : null;
  if (custody)
    io.stderr.write(`${smtp ? t(lang, "alert.smtpOn", { server: describeSmtp(smtp.url), from: smtp.from }) : t(lang, "alert.smtpOff")}\n`);
  deliverer?.start(DELIVER_EVERY_MS);
  io.stderr.write(
    `${t(lang, "serve.listening", { url, manifest: `${publicUrl}manifest.xml`, upstream: f.sandbox ? t(lang, "serve.theSandbox", { url: upstream }) : upstream })}\n`,
  );
  return {
    url,
    deliverer,
    async close() {
      try {
        await deliverer?.stop();
        mailer?.close();
        // Fastify stops taking requests and lets those in flight finish; a connection kept alive after its
        // last answer is closed as soon as it is idle (Fastify keeps them 72 s otherwise).
        const idle = setInterval(() => closeIdleConnections(app), 100);
        try {
          await app.close();
        } finally {
          clearInterval(idle);
        }
        await sandbox?.close();
        await store?.close();
      } finally {
        // The log's last lines, whatever failed above.
        log.flush();
        process.off("exit", log.flush);
      }
    },
  };
}

/** The command: starts, and stops gracefully on SIGINT or SIGTERM. Exit code 1 when it cannot start. */
export async function main(argv: string[], io: ServeIo): Promise<number> {
  let running: Running;
  try {
    running = await serve(argv, io);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    io.stderr.write(`firma serve: ${(e as Error).message}\n`);
    return 1;
  }
  return new Promise((done) => {
    const stop = () => {
      running.close().then(
        () => done(0),
        () => done(1),
      );
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
