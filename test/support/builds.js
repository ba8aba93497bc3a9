/**
 * The add-in builds the tests use, each made once per source: a build is kept under
 * node_modules/.cache/firma-test-builds/<kind>-<hash>, where the hash covers every file webpack
 * reads (src/, assets/, the manifest, webpack.config.js and its scripts, the lockfile) and the
 * build's variables. The slow project's globalSetup makes them all before the first test; a test
 * run alone asks for the one it needs and gets it from the cache, or builds it then.
 *
 * Kinds:
 *  - local:  production for https://localhost:3000/, what `npm run build:local` makes (the
 *            functions bundle the Excel runtime stand-in loads);
 *  - dev:    development (office.js copied in, the sandbox as the service): the pane's browser tests;
 *  - deploy: production for https://addin.test.example.ro/ calling its own origin: the build and
 *            deployment tests.
 *
 * Plain JavaScript: the globalSetup runs it before any transform.
 */
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const { spawn, spawnSync } = require("child_process");

const ROOT = path.resolve(__dirname, "..", "..");
/** FIRMA_TEST_BUILDS: another folder for them (e.g. one no other checkout's tests clean up). */
const CACHE = process.env.FIRMA_TEST_BUILDS || path.join(ROOT, "node_modules", ".cache", "firma-test-builds");
const WEBPACK_CLI = path.join(ROOT, "node_modules", "webpack-cli", "bin", "cli.js");

/** The address the deployment tests build for (docs/deploy.md). */
const DEPLOY_URL = "https://addin.test.example.ro/";

/** Where the deployment tests' build sends a person for a key (FIRMA_KEY_URL). */
const KEY_URL = "https://cont.test.example.ro/cheie-api";

/** The test builds' build number (the manifest's fourth <Version> part): fixed, so that a cached build does not depend on the commit count. */
const BUILD_NUMBER = "7";

const KINDS = {
  local: { mode: "production", env: { FIRMA_ADDIN_URL: "https://localhost:3000/", FIRMA_BUILD_NUMBER: BUILD_NUMBER } },
  dev: { mode: "development", env: { FIRMA_BUILD_NUMBER: BUILD_NUMBER } },
  deploy: {
    mode: "production",
    env: {
      FIRMA_ADDIN_URL: DEPLOY_URL,
      FIRMA_SERVICE_URL: "",
      FIRMA_SUPPORT_URL: "",
      FIRMA_KEY_URL: KEY_URL,
      FIRMA_BUILD_NUMBER: BUILD_NUMBER,
    },
  },
};

/** What webpack reads: a change to any of these makes a new build. */
const INPUTS = ["src", "assets", "manifest.xml", "webpack.config.js", "scripts", "package.json", "package-lock.json", "tsconfig.json"];

function filesUnder(p) {
  const full = path.join(ROOT, p);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [p];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(path.join(p, name)));
}

let sourceHash = null;
/** One hash of every input's path and bytes, computed once per process (a few milliseconds). */
function sourcesHash() {
  if (sourceHash) return sourceHash;
  const h = crypto.createHash("sha256");
  for (const f of INPUTS.flatMap(filesUnder))
    h.update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(ROOT, f)))
      .update("\0");
  return (sourceHash = h.digest("hex").slice(0, 16));
}

/** The environment of a build: the kind's variables and no FIRMA_* the caller happens to have set. */
function buildEnv(kind) {
  const env = { ...process.env, NODE_ENV: KINDS[kind].mode };
  for (const k of Object.keys(env)) if (k.startsWith("FIRMA_")) delete env[k];
  return { ...env, ...KINDS[kind].env };
}

function dirOf(kind) {
  if (!KINDS[kind]) throw new Error(`unknown build kind ${kind}`);
  const h = crypto.createHash("sha256").update(sourcesHash()).update(JSON.stringify(KINDS[kind])).digest("hex").slice(0, 16);
  return path.join(CACHE, `${kind}-${h}`);
}

function args(kind, out) {
  return [WEBPACK_CLI, "--mode", KINDS[kind].mode, "--output-path", out];
}

/** Moves a finished build into place (another process may have finished the same build first: then its copy stays). */
function settle(kind, tmp, dir) {
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw e;
  }
  // Other builds of this kind are of other sources: gone once nothing has used them for a day. Not at
  // once: checkouts that share node_modules (git worktrees) each use their own build, and removing
  // theirs would fail their tests mid-run.
  for (const name of fs.readdirSync(CACHE)) {
    const other = path.join(CACHE, name);
    if (!name.startsWith(`${kind}-`) || other === dir) continue;
    try {
      if (Date.now() - fs.statSync(other).mtimeMs > UNUSED_MS) fs.rmSync(other, { recursive: true, force: true });
    } catch {
      // removed meanwhile by another process
    }
  }
}

/** How long a build of other sources is kept after its last use. */
const UNUSED_MS = 24 * 3600 * 1000;

/** Marks a cached build as in use (its folder's time), so that other checkouts keep it. */
function touch(dir) {
  const now = new Date();
  try {
    fs.utimesSync(dir, now, now);
  } catch {
    // a read-only cache still serves
  }
  return dir;
}

const pending = new Map();

/** The folder of a build of this kind for the present sources, built first when the cache has none. */
function ensureBuild(kind) {
  const dir = dirOf(kind);
  if (fs.existsSync(dir)) return Promise.resolve(touch(dir));
  if (pending.has(dir)) return pending.get(dir);
  fs.mkdirSync(CACHE, { recursive: true });
  const tmp = `${dir}.tmp${process.pid}-${Date.now()}`;
  const p = new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args(kind, tmp), { cwd: ROOT, env: buildEnv(kind) });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        fs.rmSync(tmp, { recursive: true, force: true });
        return reject(new Error(`webpack --mode ${KINDS[kind].mode} (${kind}) failed (${code}):\n${output}`));
      }
      try {
        settle(kind, tmp, dir);
        resolve(dir);
      } catch (e) {
        reject(e);
      }
    });
  }).finally(() => pending.delete(dir));
  pending.set(dir, p);
  return p;
}

/** ensureBuild(), blocking: for the modules that need their build when they are loaded. */
function ensureBuildSync(kind) {
  const dir = dirOf(kind);
  if (fs.existsSync(dir)) return touch(dir);
  fs.mkdirSync(CACHE, { recursive: true });
  const tmp = `${dir}.tmp${process.pid}-${Date.now()}`;
  const r = spawnSync(process.execPath, args(kind, tmp), { cwd: ROOT, env: buildEnv(kind), encoding: "utf8" });
  if (r.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`webpack (${kind}) failed (${r.status}):\n${r.stdout}${r.stderr}`);
  }
  settle(kind, tmp, dir);
  return dir;
}

/** Every kind, two at a time (two cores): the slow project's globalSetup. */
async function ensureAllBuilds() {
  const started = Date.now();
  const [local, dev] = await Promise.all([ensureBuild("local"), ensureBuild("dev")]);
  const deploy = await ensureBuild("deploy");
  return { local, dev, deploy, ms: Date.now() - started };
}

module.exports = { DEPLOY_URL, KEY_URL, KINDS, ensureBuild, ensureBuildSync, ensureAllBuilds, buildEnv, sourcesHash };
