/**
 * `npm test`: the type check, the lint and Jest, all three at once; the run fails when any fails.
 * tsc and ESLint are one process each and run at the lowest CPU priority (nice 19): Jest's workers
 * keep the two cores only partly busy (they wait on Chromium, PostgreSQL, child processes and the
 * sandbox's latency), and the checks take what they leave, so they add nothing to the run's time and
 * do not slow Jest's timing tests (timeouts of a few hundred milliseconds against the sandbox), which
 * get a core first whenever they want one. The checks' outputs are buffered and printed whole when
 * each ends (not interleaved with Jest's).
 *
 * Plain JavaScript: it runs before anything is transformed. Arguments after `--` go to Jest.
 */
const { spawn } = require("child_process");
const path = require("path");

const ROOT = path.resolve(__dirname, "..", "..");
const bin = (p) => path.join(ROOT, "node_modules", p);
const jestArgs = process.argv.slice(2).filter((a) => a !== "--");

const windows = process.platform === "win32";
const npm = windows ? "npm.cmd" : "npm";
/** `npm run <script>` at the lowest priority (POSIX nice; on Windows at the normal one). */
const lowly = (script) =>
  windows ? { cmd: npm, args: ["run", "--silent", script] } : { cmd: "nice", args: ["-n", "19", npm, "run", "--silent", script] };
const JOBS = [
  // The package's own scripts, so that `npm run typecheck` and `npm run lint` stay the one definition.
  { name: "typecheck", ...lowly("typecheck"), buffered: true },
  { name: "lint", ...lowly("lint"), buffered: true },
  // Jest's own output streams as it goes: it is the long one, and its progress is what one watches.
  // The parent keeps the 8 GB heap it had; the workers' memory is jest.config.js's business.
  { name: "jest", cmd: process.execPath, args: ["--max-old-space-size=8192", bin("jest/bin/jest.js"), ...jestArgs], buffered: false },
];

function run(job) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(job.cmd, job.args, { cwd: ROOT, stdio: job.buffered ? ["ignore", "pipe", "pipe"] : "inherit" });
    let out = "";
    if (job.buffered) {
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
    }
    child.on("error", (e) => resolve({ ...job, code: 1, out: String(e), s: 0 }));
    child.on("close", (code, signal) => {
      const s = (Date.now() - started) / 1000;
      const r = { ...job, code: code ?? 1, signal, out, s };
      if (job.buffered) {
        process.stdout.write(`\n── ${job.name} (${s.toFixed(0)} s): ${r.code === 0 ? "passed" : "FAILED"} ──\n`);
        if (out.trim()) process.stdout.write(out.endsWith("\n") ? out : `${out}\n`);
      }
      resolve(r);
    });
  });
}

(async () => {
  const results = await Promise.all(JOBS.map(run));
  const failed = results.filter((r) => r.code !== 0);
  process.stdout.write(
    `\nnpm test: ${results.map((r) => `${r.name} ${r.s.toFixed(0)} s ${r.code === 0 ? "passed" : "FAILED"}`).join(", ")}\n`,
  );
  process.exit(failed.length ? 1 : 0);
})();
