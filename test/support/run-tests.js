/**
 * `npm test`: the type check and the lint side by side, then Jest (when both pass, as with `&&`
 * before). tsc and ESLint are one process each, each keeping one core busy: one after the other they
 * left the second core idle. The first of them to end hands its core to the add-in builds the slow
 * tests load (webpack, test/support/builds.js), while the other goes on; Jest's globalSetup then finds
 * them made rather than making them with the type check's core long idle. Jest comes after all three:
 * its timing tests (timeouts of a few hundred milliseconds against the sandbox) must not share the two
 * cores with them. The buffered outputs are printed whole when each ends (not interleaved); the run
 * fails when any fails.
 *
 * Plain JavaScript: it runs before anything is transformed. Arguments after `--` go to Jest.
 */
const { spawn } = require("child_process");
const path = require("path");

const ROOT = path.resolve(__dirname, "..", "..");
const bin = (p) => path.join(ROOT, "node_modules", p);
const jestArgs = process.argv.slice(2).filter((a) => a !== "--");

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const JOBS = [
  // The package's own scripts, so that `npm run typecheck` and `npm run lint` stay the one definition.
  { name: "typecheck", cmd: npm, args: ["run", "--silent", "typecheck"], buffered: true },
  { name: "lint", cmd: npm, args: ["run", "--silent", "lint"], buffered: true },
  {
    name: "builds",
    cmd: process.execPath,
    args: ["-e", "require('./test/support/builds').ensureAllBuilds().catch((e) => { console.error(e.message); process.exit(1); })"],
    buffered: true,
  },
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
  const checks = JOBS.slice(0, 2).map(run);
  const builds = Promise.race(checks).then(() => run(JOBS[2]));
  const results = await Promise.all([...checks, builds]);
  if (results.every((r) => r.code === 0)) results.push(await run(JOBS[3]));
  const failed = results.filter((r) => r.code !== 0);
  process.stdout.write(
    `\nnpm test: ${results.map((r) => `${r.name} ${r.s.toFixed(0)} s ${r.code === 0 ? "passed" : "FAILED"}`).join(", ")}\n`,
  );
  process.exit(failed.length ? 1 : 0);
})();
