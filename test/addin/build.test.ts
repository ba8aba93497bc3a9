/**
 * The webpack builds (development, and production for one address; made once per run into the
 * tests' build cache, so dist/ is left alone: test/support/builds.js): functions.json is generated from the JSDoc and fits Microsoft's schema, the pane
 * page loads office.js and both bundles, the manifest and icons are copied, and a production build
 * is made for the address it is given (FIRMA_ADDIN_URL) and nothing else.
 */
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv-draft-04";
import { FUNCTIONS_SCHEMA, MANIFEST_XSD, ROOT } from "./paths";

const { validateManifest } = require("../../scripts/validate-manifest.js") as {
  validateManifest(file: string): { status: "valid" | "invalid" | "skipped" | "no-xmllint"; output: string };
};

const { DEPLOY_URL, ensureBuild } = require("../support/builds") as {
  DEPLOY_URL: string;
  ensureBuild(kind: "dev" | "deploy"): Promise<string>;
};
/** The address the production build is made for (docs/deploy.md). */
const ADDIN_URL = DEPLOY_URL;
const { version } = require("../../package.json") as { version: string };

let dev: string;
let prod: string;

beforeAll(async () => {
  // The development build and the production build for ADDIN_URL, made once per run (test/support/builds.js).
  [dev, prod] = await Promise.all([ensureBuild("dev"), ensureBuild("deploy")]);
}, 240_000);

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");

/** The src of each <script> in a page, in order (quoted or not: production pages are minified). */
function scriptSrcs(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*?\bsrc=(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe.each([
  ["development", () => dev],
  ["production", () => prod],
])("%s build", (_mode, dir) => {
  test("writes the bundles, the metadata, the pane, the manifest, the icons (and, in development, office.js)", () => {
    for (const f of [
      "functions.js",
      "runtime.js",
      "shared.js",
      "functions.json",
      "functions-en.json",
      "functions-legate.json",
      "functions-legate-en.json",
      "taskpane.js",
      "taskpane.html",
      "taskpane.css",
      "sections.css",
      "themes.css",
      "manifest.xml",
      "manifest-legate.xml",
      ...(dir() === dev ? ["office-js/office.js", "office-js/excel-win32-16.01.js", "office-js/ro-ro/office_strings.js"] : []),
      ...[16, 32, 64, 80, 128].map((s) => `assets/icon-${s}.png`),
    ]) {
      expect(fs.existsSync(path.join(dir(), f))).toBe(true);
    }
  });

  test("functions.json lists DENUMIRE with its parameter", () => {
    const meta = JSON.parse(read(dir(), "functions.json"));
    const fn = meta.functions.find((f: { id: string }) => f.id === "DENUMIRE");
    expect(fn).toMatchObject({ id: "DENUMIRE", name: "DENUMIRE", parameters: [{ name: "cui" }] });
    expect(fn.description).toMatch(/Denumirea firmei/);
  });

  test.each(["functions.json", "functions-en.json"])("%s fits Microsoft's custom-functions schema", (file) => {
    if (!fs.existsSync(FUNCTIONS_SCHEMA)) {
      console.log(`functions.json schema check SKIPPED: ${FUNCTIONS_SCHEMA} not found (the shared folder is absent).`);
      return;
    }
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(fs.readFileSync(FUNCTIONS_SCHEMA, "utf8")));
    const ok = validate(JSON.parse(read(dir(), file)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  test("functions-en.json: the same ids as functions.json, English names; both accept errors in ranges", () => {
    const ro = JSON.parse(read(dir(), "functions.json"));
    const en = JSON.parse(read(dir(), "functions-en.json"));
    const ids = (m: { functions: { id: string; parameters: unknown[] }[] }) => m.functions.map((f) => `${f.id}/${f.parameters.length}`);
    expect(ids(en)).toEqual(ids(ro));
    expect(en.functions.find((f: { id: string }) => f.id === "DENUMIRE").name).toBe("NAME");
    expect(ro.allowErrorForDataTypeAny).toBe(true);
    expect(en.allowErrorForDataTypeAny).toBe(true);
  });

  test("the built manifest, with its locale overrides, fits the manifest XSD", () => {
    if (!fs.existsSync(MANIFEST_XSD)) {
      console.log(`built manifest XSD check SKIPPED: ${MANIFEST_XSD} not found (the shared folder is absent).`);
      return;
    }
    const file = path.join(dir(), "manifest.xml");
    expect(read(dir(), "manifest.xml")).toMatch(/<bt:Override Locale="en-US" Value="[^"]*\/functions-en\.json\?v=[0-9a-f]{12}"\/>/);
    expect(validateManifest(file)).toMatchObject({ status: "valid" });
  });

  test("the linked edition's manifest: manifest.xml's add-in, activated only with ExcelApi 1.19, with the load service's metadata and a page that says so; it fits the XSD", () => {
    const plain = read(dir(), "manifest.xml");
    const linked = read(dir(), "manifest-legate.xml");
    // The same add-in (Id, version, namespace) and only these differences:
    expect(linked.match(/<Id>[^<]+<\/Id>/)![0]).toBe(plain.match(/<Id>[^<]+<\/Id>/)![0]);
    expect(linked).toMatch(/<Requirements>\s*<Sets DefaultMinVersion="1.1">\s*<Set Name="ExcelApi" MinVersion="1.19"\/>/);
    expect(plain).not.toContain('Name="ExcelApi"');
    expect(linked).toMatch(/<bt:Url id="JSON.Url" DefaultValue="[^"]*\/functions-legate\.json\?v=[0-9a-f]{12}">/);
    expect(linked).toMatch(/<bt:Override Locale="en-US" Value="[^"]*\/functions-legate-en\.json\?v=[0-9a-f]{12}"\/>/);
    expect(linked).toMatch(/<bt:Url id="Taskpane.Url" DefaultValue="[^"]*\/taskpane\.html\?legate=1&amp;v=[0-9a-f]{12}"\/>/);
    const undo = linked
      .replace(/\s*<Set Name="ExcelApi" MinVersion="1.19"\/>/, "")
      .replace(/functions-legate(-en)?\.json/g, "functions$1.json")
      .replace(/taskpane\.html\?legate=1&amp;/g, "taskpane.html?");
    expect(undo).toBe(plain);
    if (fs.existsSync(MANIFEST_XSD)) expect(validateManifest(path.join(dir(), "manifest-legate.xml"))).toMatchObject({ status: "valid" });
  });

  test("the functions bundle registers DENUMIRE", () => {
    expect(read(dir(), "functions.js")).toMatch(/CustomFunctions\.associate\(\s*"DENUMIRE"/);
  });

  test("the pane page loads office.js, then one webpack runtime, the shared modules, the functions and the pane", () => {
    const srcs = scriptSrcs(read(dir(), "taskpane.html"));
    expect(srcs[0]).toMatch(/(^|\/)office\.js$/);
    // runtime first (one module registry for both entries), the functions before the pane
    expect(srcs.slice(1).map((s) => s.split("?")[0])).toEqual(["runtime.js", "shared.js", "functions.js", "taskpane.js"]);
  });

  test("one engine: its code is in shared.js only, once, and no global links two copies", () => {
    // A message only the engine's option check has (engine/engine-options.ts), and a credit header only the client reads (src/api/http.ts; the pane's firm link sends X-API-Key itself): each in one file.
    for (const marker of ["a key-value store (getItem, setItem, removeItem)", "x-credits-limit"]) {
      const holders = ["runtime.js", "shared.js", "functions.js", "taskpane.js"].filter((f) => read(dir(), f).includes(marker));
      expect(holders).toEqual(["shared.js"]);
    }
    for (const f of ["shared.js", "functions.js", "taskpane.js"]) expect(read(dir(), f)).not.toContain("firma.engine");
  });

  test("the pane's flows are a chunk of their own, loaded when first used: not a start script, no engine in it", () => {
    const chunks = fs.readdirSync(dir()).filter((f) => /^flows(\.[0-9a-f]{8})?\.js$/.test(f));
    expect(chunks).toEqual([expect.stringMatching(/^flows\.[0-9a-f]{8}\.js$/)]);
    const chunk = read(dir(), chunks[0]);
    expect(chunk).toContain("columns.doneFormulas"); // the flows' own texts travel with them
    for (const marker of ["a key-value store (getItem, setItem, removeItem)", "x-credits-limit"]) expect(chunk).not.toContain(marker);
    for (const f of ["runtime.js", "shared.js", "functions.js", "taskpane.js"])
      expect(read(dir(), f)).not.toContain("columns.doneFormulas");
  });
});

describe("development and production differ where they should", () => {
  test("office.js: the local copy in development, the Office CDN in production", () => {
    expect(scriptSrcs(read(dev, "taskpane.html"))[0]).toBe("office-js/office.js");
    expect(scriptSrcs(read(prod, "taskpane.html"))[0]).toBe("https://appsforoffice.microsoft.com/lib/1/hosted/office.js");
  });

  test("the manifest keeps the dev server's URLs in development, and its functions' URLs carry the build's hash", () => {
    const devManifest = read(dev, "manifest.xml");
    // the repository's manifest, less its developer comments, with package.json's version
    const source = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8").replace(/<!--[\s\S]*?-->\n?/g, "");
    expect(devManifest.replace(/\?v=[0-9a-f]{12}/g, "")).toBe(source.replace(/<Version>[^<]*</, `<Version>${version}.7<`));
    expect(devManifest).toMatch(/functions\.json\?v=[0-9a-f]{12}"/);
  });

  test("production: every URL of the manifest, the metadata and the pages is the address given, or Microsoft's CDN", () => {
    const urls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'<>);]+/g)].map((m) => m[0]);
    const manifest = read(prod, "manifest.xml").replace(/xmlns(:\w+)?="[^"]*"/g, "");
    const files = [manifest, read(prod, "functions.json"), read(prod, "functions-en.json"), read(prod, "taskpane.html")];
    const all = files.flatMap(urls);
    expect(all.length).toBeGreaterThan(20);
    const others = all.filter(
      (u) => !u.startsWith(ADDIN_URL) && !/^https:\/\/(appsforoffice\.microsoft\.com|ajax\.aspnetcdn\.com)(\/|$)/.test(u),
    );
    expect(others).toEqual([]);
    expect(urls(manifest).every((u) => u.startsWith(ADDIN_URL))).toBe(true);
    // no address of the development server or of the old placeholders anywhere in what is shipped
    for (const f of fs.readdirSync(prod).filter((f) => /\.(js|json|html|xml)$/.test(f))) {
      expect(read(prod, f)).not.toMatch(/https:\/\/localhost:3000\/|firma\.example/);
    }
  });

  test("production: the manifest's <Version> is package.json's and the build number, its functions' URLs carry the content hash, and it fits the XSD", () => {
    const manifest = read(prod, "manifest.xml");
    expect(manifest).toContain(`<Version>${version}.7</Version>`); // FIRMA_BUILD_NUMBER=7 (test/support/builds.js)
    const hashes = [...manifest.matchAll(/(?:functions\.js|functions(?:-en)?\.json|taskpane\.html)\?v=([0-9a-f]{12})"/g)].map((m) => m[1]);
    expect(hashes.length).toBeGreaterThanOrEqual(4);
    expect(new Set(hashes).size).toBe(1);
    expect(hashes[0]).not.toBe(/\?v=([0-9a-f]{12})/.exec(read(dev, "manifest.xml"))![1]); // other content, other hash
    expect(manifest).toContain(`<SupportUrl DefaultValue="${ADDIN_URL}"/>`);
    if (fs.existsSync(MANIFEST_XSD)) expect(validateManifest(path.join(prod, "manifest.xml"))).toMatchObject({ status: "valid" });
    expect(JSON.parse(read(prod, "firma-build.json"))).toEqual({
      addinUrl: ADDIN_URL,
      serviceUrl: "",
      version,
      manifestVersion: `${version}.7`,
    });
  });

  test("production ships no copy of office.js and its page carries a Content-Security-Policy as strict as office.js allows", () => {
    expect(fs.existsSync(path.join(prod, "office-js"))).toBe(false);
    expect(fs.existsSync(path.join(dev, "office-js", "office.js"))).toBe(true);
    const html = read(prod, "taskpane.html");
    const csp = /<meta http-equiv="?Content-Security-Policy"? content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toBeDefined();
    const directives = Object.fromEntries(
      csp!
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );
    expect(directives["script-src"]).toEqual(["'self'", "https://appsforoffice.microsoft.com", "https://ajax.aspnetcdn.com"]);
    expect(directives["connect-src"]).toEqual(["'self'"]); // no FIRMA_SERVICE_URL: the add-in's own origin only
    expect(directives["object-src"]).toEqual(["'none'"]);
    // the CSP comes before any script
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<script"));
    expect(read(dev, "taskpane.html")).not.toContain("Content-Security-Policy");
  });

  test("the default service address: the sandbox in development, the add-in's own origin in production", () => {
    const bundles = (dir: string) => ["shared.js", "functions.js", "taskpane.js"].map((f) => read(dir, f)).join("\n");
    // the address as the default's literal (the catalog's CLI hints mention the sandbox inside sentences)
    expect(bundles(dev)).toMatch(/["']http:\/\/127\.0\.0\.1:3001["']/);
    expect(bundles(prod)).not.toMatch(/["']http:\/\/127\.0\.0\.1:3001["']/);
  });
});
