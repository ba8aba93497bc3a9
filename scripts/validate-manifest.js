#!/usr/bin/env node
/**
 * Offline check of manifest.xml against Microsoft's add-in manifest schemas, with xmllint.
 * (`npm run validate` is the online check; it needs Microsoft's service.)
 *
 *   node scripts/validate-manifest.js [manifest.xml]
 *
 * The schemas live in the shared folder beside the repository (../shared/schemas/office-addin-manifest,
 * or FIRMA_MANIFEST_SCHEMA_DIR). Exit codes: 0 valid, or skipped because the schemas are absent;
 * 1 invalid; 2 xmllint is missing or could not run.
 */
"use strict";

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const ROOT = path.resolve(__dirname, "..");
const SCHEMA_DIR = process.env.FIRMA_MANIFEST_SCHEMA_DIR
  ? path.resolve(process.env.FIRMA_MANIFEST_SCHEMA_DIR)
  : path.resolve(ROOT, "..", "shared", "schemas", "office-addin-manifest");
const SCHEMA = path.join(SCHEMA_DIR, "OfficeAppManifestV1_1.xsd");

/**
 * Runs xmllint on a manifest. Returns { status: "valid" | "invalid" | "skipped" | "no-xmllint", output }.
 */
function validateManifest(manifest, schema = SCHEMA) {
  if (!fs.existsSync(schema)) return { status: "skipped", output: `schema not found: ${schema}` };
  const r = spawnSync("xmllint", ["--noout", "--nonet", "--schema", schema, manifest], {
    encoding: "utf8",
  });
  if (r.error) {
    return {
      status: "no-xmllint",
      output: `xmllint could not run (${r.error.code || r.error.message}); on Debian/Ubuntu: apt-get install libxml2-utils`,
    };
  }
  const output = `${r.stdout || ""}${r.stderr || ""}`.trim();
  if (r.status === 0) return { status: "valid", output };
  // 3/4: the document does not validate; 5: the schema did not load; others: xmllint's own trouble.
  return { status: "invalid", output: `xmllint exit code ${r.status}\n${output}` };
}

function main(argv) {
  const manifest = path.resolve(argv[0] || path.join(ROOT, "manifest.xml"));
  if (!fs.existsSync(manifest)) {
    console.error(`validate-manifest: ${manifest} not found`);
    return 1;
  }
  const { status, output } = validateManifest(manifest);
  switch (status) {
    case "valid":
      console.log(`validate-manifest: ${path.relative(process.cwd(), manifest)} is valid (${path.relative(process.cwd(), SCHEMA)}).`);
      return 0;
    case "skipped":
      console.log(`validate-manifest: SKIPPED, the manifest schemas are not here (${output}).`);
      return 0;
    case "no-xmllint":
      console.error(`validate-manifest: ${output}`);
      return 2;
    default:
      console.error(`validate-manifest: ${path.relative(process.cwd(), manifest)} is NOT valid:\n${output}`);
      return 1;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { validateManifest, SCHEMA };
