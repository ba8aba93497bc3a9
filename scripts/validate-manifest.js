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
 * What the XSDs cannot say: the rules of Microsoft's page on the shared runtime
 * (https://learn.microsoft.com/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime):
 *  - "In the ancestor <Host> element that has a descendant <Runtime> element that is set to a long
 *    lifetime, none of the descendant <Action> elements should have a <TaskpaneID> child element";
 *  - "The shared runtime won't load if the resid of the runtime isn't consistent in the manifest": the
 *    custom functions' <Page> and the <FunctionFile> use the runtime's resid.
 * Returns one line per problem (empty: none). The manifest is read with fast-xml-parser.
 */
function sharedRuntimeProblems(xml) {
  const { XMLParser } = require("fast-xml-parser");
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", removeNSPrefix: true }).parse(xml);
  const list = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const problems = [];
  /** Every object under `node` (depth first) with the element name `name`. */
  const find = (node, name, out = []) => {
    if (node === null || typeof node !== "object") return out;
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("@")) continue;
      for (const child of list(v)) {
        if (k === name) out.push(child);
        find(child, name, out);
      }
    }
    return out;
  };
  const overrides = list(doc.OfficeApp?.VersionOverrides);
  for (const vo of overrides) {
    for (const host of list(vo.Hosts?.Host)) {
      const runtimes = find(host, "Runtime").filter((r) => r["@lifetime"] === "long");
      if (runtimes.length === 0) continue;
      const resid = runtimes[0]["@resid"];
      if (runtimes.length > 1) problems.push(`host ${host["@type"] ?? ""}: more than one long-lived <Runtime>`);
      for (const action of find(host, "Action")) {
        if ("TaskpaneId" in action || "TaskpaneID" in action)
          problems.push(
            `an <Action> carries a <TaskpaneId> under the shared runtime's host (${resid}): a shared runtime has one task pane`,
          );
      }
      for (const page of find(host, "Page")) {
        const r = page.SourceLocation?.["@resid"];
        if (r !== undefined && r !== resid) problems.push(`the custom functions' <Page> uses ${r}, not the runtime's ${resid}`);
      }
      for (const ff of find(host, "FunctionFile")) {
        if (ff["@resid"] !== resid) problems.push(`<FunctionFile> uses ${ff["@resid"]}, not the runtime's ${resid}`);
      }
    }
  }
  return problems;
}

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
  if (r.status === 0) {
    const problems = sharedRuntimeProblems(fs.readFileSync(manifest, "utf8"));
    if (problems.length > 0) return { status: "invalid", output: `shared runtime:\n  ${problems.join("\n  ")}` };
    return { status: "valid", output };
  }
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

module.exports = { validateManifest, sharedRuntimeProblems, SCHEMA };
