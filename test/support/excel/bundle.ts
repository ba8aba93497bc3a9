/**
 * The browser copy of the Excel stand-in, made from its TypeScript sources at test time: browser.ts and
 * what it imports, bundled by esbuild into one script (an IIFE, ES2020) that page.addInitScript injects.
 * Nothing of it is kept by hand: the script is cached under node_modules/.cache/firma-test-builds
 * (FIRMA_TEST_BUILDS: another folder, as test/support/builds.js) as excel-standin-<hash>.js, the hash
 * over this folder's sources and esbuild's version, so a change to a source makes a new script.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { buildSync, version as esbuildVersion } from "esbuild";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const CACHE = process.env.FIRMA_TEST_BUILDS || path.join(ROOT, "node_modules", ".cache", "firma-test-builds");
const ENTRY = path.join(__dirname, "browser.ts");
/** Scripts of older sources go once nothing has used them for a day (other worktrees may still use theirs). */
const UNUSED_MS = 24 * 60 * 60 * 1000;

/** The stand-in's sources: the TypeScript of this folder, tests and this file aside. */
export function standInSources(): string[] {
  return fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "bundle.ts")
    .sort()
    .map((f) => path.join(__dirname, f));
}

/** The script as esbuild makes it from the sources now. */
export function bundleStandIn(): string {
  const out = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  return `// The Excel stand-in, bundled from test/support/excel/*.ts by test/support/excel/bundle.ts: do not edit.\n${out.outputFiles[0].text}`;
}

/** The key of the script made from `sources` (name → text): esbuild's version and every source's name and bytes. */
export function sourcesHash(sources: [string, string | Buffer][]): string {
  const h = crypto.createHash("sha256").update(esbuildVersion).update("\0");
  for (const [name, text] of sources) h.update(name).update("\0").update(text).update("\0");
  return h.digest("hex").slice(0, 16);
}

let made: string | null = null;

/** The path of the stand-in's script for these sources, made (and cached) if need be. */
export function standInScriptPath(): string {
  if (made && fs.existsSync(made)) return made;
  const hash = sourcesHash(standInSources().map((f): [string, Buffer] => [path.basename(f), fs.readFileSync(f)]));
  const file = path.join(CACHE, `excel-standin-${hash}.js`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bundleStandIn());
    fs.renameSync(tmp, file); // whole or not at all: another worker may be reading it
    for (const name of fs.readdirSync(CACHE)) {
      const other = path.join(CACHE, name);
      if (!name.startsWith("excel-standin-") || other === file) continue;
      try {
        if (Date.now() - fs.statSync(other).mtimeMs > UNUSED_MS) fs.rmSync(other, { force: true });
      } catch {
        // removed meanwhile by another process
      }
    }
  } else fs.utimesSync(file, new Date(), new Date());
  return (made = file);
}

/** The stand-in's script for these sources. */
export function standInScript(): string {
  return fs.readFileSync(standInScriptPath(), "utf8");
}
