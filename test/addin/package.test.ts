/**
 * `npm run package -- --url https://…` (scripts/package.js): one archive of the add-in built for that
 * address, for static hosting; a refused address writes nothing and says which variable.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { unzipSync, strFromU8 } from "fflate";
import { ROOT } from "./paths";

const SCRIPT = path.join(ROOT, "scripts", "package.js");
let tmp: string;
beforeAll(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "firma-pkg-"))));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A build number of its own: the commit count would not do for a checkout with changes not yet committed.
const run = (...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args], { cwd: tmp, encoding: "utf8", env: { ...process.env, FIRMA_BUILD_NUMBER: "7" } });

test("the archive holds the add-in built for the address, with its manifest, and no copy of office.js", () => {
  const out = path.join(tmp, "firma.zip");
  const r = run("--url", "https://addin.test.example.ro/", "--out", out);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^package: .*firma\.zip \(\d+ bytes\) for https:\/\/addin\.test\.example\.ro\//);
  const files = unzipSync(fs.readFileSync(out));
  for (const f of [
    "manifest.xml",
    "taskpane.html",
    "functions.json",
    "functions-en.json",
    "functions.js",
    "shared.js",
    "assets/icon-32.png",
  ]) {
    expect(Object.keys(files)).toContain(f);
  }
  expect(Object.keys(files).some((f) => f.startsWith("office-js/"))).toBe(false);
  expect(strFromU8(files["manifest.xml"])).toContain('<SourceLocation DefaultValue="https://addin.test.example.ro/taskpane.html');
}, 120_000);

test("a refused address writes nothing and names the variable", () => {
  const out = path.join(tmp, "bad.zip");
  const r = run("--url", "https://addin.firma.example/", "--out", out);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^package: the build failed: DeploymentError: FIRMA_ADDIN_URL is a placeholder address/);
  expect(fs.existsSync(out)).toBe(false);
  expect(run().stderr).toMatch(/--url is required/);
}, 120_000);
