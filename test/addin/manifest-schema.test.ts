/**
 * manifest.xml against Microsoft's add-in manifest schemas (XSD), offline, with xmllint.
 * Skipped (and says so) when the shared schemas are absent; fails when they are present but xmllint is not.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { MANIFEST, MANIFEST_XSD } from "./paths";

const { validateManifest } = require("../../scripts/validate-manifest.js") as {
  validateManifest(file: string): { status: string; output: string };
};

const haveSchemas = fs.existsSync(MANIFEST_XSD);
if (!haveSchemas) {
  console.log(`manifest XSD check SKIPPED: ${MANIFEST_XSD} not found (the shared folder is absent).`);
}
const withSchemas = haveSchemas ? describe : describe.skip;

function xmllint(file: string): { status: number | null; output: string } {
  const r = spawnSync("xmllint", ["--noout", "--nonet", "--schema", MANIFEST_XSD, file], {
    encoding: "utf8",
  });
  if (r.error) {
    throw new Error(
      `xmllint could not run (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}): ` +
        "install it (Debian/Ubuntu: apt-get install libxml2-utils); the schemas are here, so this check must run.",
    );
  }
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

withSchemas("manifest.xml against the XSD", () => {
  test("is valid", () => {
    const { status, output } = xmllint(MANIFEST);
    expect(output).toContain("validates");
    expect(status).toBe(0);
  });

  test("the metadata URL's locale overrides are checked too: an override without a Value is rejected", () => {
    const broken = fs.readFileSync(MANIFEST, "utf8").replace(/(<bt:Override Locale="en-GB") Value="[^"]*"/, "$1");
    expect(broken).toContain('<bt:Override Locale="en-GB"/>');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-manifest-"));
    try {
      const file = path.join(dir, "manifest.xml");
      fs.writeFileSync(file, broken);
      const { status, output } = xmllint(file);
      expect(status).not.toBe(0);
      expect(output).toMatch(/Value/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the check really checks: a broken copy is rejected", () => {
    const broken = fs
      .readFileSync(MANIFEST, "utf8")
      .replace("<Permissions>ReadWriteDocument</Permissions>", "<Permissions>Everything</Permissions>");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-manifest-"));
    try {
      const file = path.join(dir, "manifest.xml");
      fs.writeFileSync(file, broken);
      const { status, output } = xmllint(file);
      expect(status).not.toBe(0);
      expect(output).toMatch(/Permissions/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // "none of the descendant <Action> elements should have a <TaskpaneID> child element"
  // (https://learn.microsoft.com/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime)
  test("the offline check (npm run validate:offline) passes the manifest and refuses a <TaskpaneId> under the shared runtime's host", () => {
    expect(validateManifest(MANIFEST)).toMatchObject({ status: "valid" });
    const broken = fs
      .readFileSync(MANIFEST, "utf8")
      .replace('<Action xsi:type="ShowTaskpane">', '<Action xsi:type="ShowTaskpane">\n<TaskpaneId>FIRMA.Taskpane</TaskpaneId>');
    expect(broken).toContain("<TaskpaneId>");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-manifest-"));
    try {
      const file = path.join(dir, "manifest.xml");
      fs.writeFileSync(file, broken);
      expect(xmllint(file).status).toBe(0); // the XSD allows it…
      const r = validateManifest(file); // …the shared-runtime rule does not
      expect(r.status).toBe("invalid");
      expect(r.output).toMatch(/TaskpaneId/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
