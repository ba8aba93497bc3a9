#!/usr/bin/env node
/**
 * `npm run package -- --url https://addin.firma-mea.ro/ [--service https://…] [--support https://…] [--out FILE]`
 *
 * One archive for IT to host anywhere static (SharePoint, Azure Static Web Apps, a CDN): the add-in
 * built for that address (a production build: FIRMA_ADDIN_URL, FIRMA_SERVICE_URL, FIRMA_SUPPORT_URL,
 * scripts/deployment.js) with its manifest.xml, zipped with fflate (a dependency already). For a service
 * that allows the add-in's origin (CORS, docs/deploy.md); otherwise `firma serve` relays it.
 * Exit 1, with the reason, when the address is refused or the build fails; nothing is written then.
 */
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");
const { zipSync } = require("fflate");
const { URL } = require("url");

const ROOT = path.resolve(__dirname, "..");

function parse(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = inline ?? argv[++i];
    if (!["--url", "--service", "--support", "--out"].includes(flag) || value === undefined) {
      throw new Error(
        `usage: npm run package -- --url https://… [--service https://…] [--support https://…] [--out FILE] (not understood: ${argv[i - (inline ? 0 : 1)]})`,
      );
    }
    o[flag.slice(2)] = value;
  }
  if (!o.url) throw new Error("--url is required: the https address the add-in will be served from");
  return o;
}

/** Every file under `dir`, as archive paths → contents. */
function files(dir, prefix = "") {
  const out = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, files(path.join(dir, e.name), rel));
    else out[rel] = fs.readFileSync(path.join(dir, e.name));
  }
  return out;
}

function main(argv) {
  let o;
  try {
    o = parse(argv);
  } catch (e) {
    console.error(`package: ${e.message}`);
    return 1;
  }
  const { version } = require(path.join(ROOT, "package.json"));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "firma-package-"));
  try {
    const env = { ...process.env, FIRMA_ADDIN_URL: o.url, FIRMA_SERVICE_URL: o.service ?? "", FIRMA_SUPPORT_URL: o.support ?? "" };
    const cli = path.join(ROOT, "node_modules", "webpack-cli", "bin", "cli.js");
    const r = spawnSync(process.execPath, [cli, "--mode", "production", "--output-path", tmp], { cwd: ROOT, env, encoding: "utf8" });
    if (r.status !== 0) {
      const why = `${r.stdout}${r.stderr}`.split("\n").find((l) => /Error/.test(l)) ?? `webpack exit code ${r.status}`;
      console.error(`package: the build failed: ${why.replace(/^\[webpack-cli\]\s*/, "")}`);
      return 1;
    }
    const host = new URL(o.url).hostname;
    const out = path.resolve(o.out ?? `firma-addin-${version}-${host}.zip`);
    const zip = zipSync(files(tmp), { level: 9 });
    const part = `${out}.part`;
    fs.writeFileSync(part, zip);
    fs.renameSync(part, out); // whole or not at all
    console.log(
      `package: ${path.relative(process.cwd(), out) || out} (${zip.length} bytes) for ${o.url}: host its files at that address, then upload manifest.xml (docs/deploy.md).`,
    );
    return 0;
  } catch (e) {
    console.error(`package: ${e.message}`);
    return 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main };
