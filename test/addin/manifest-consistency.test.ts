/**
 * What the XSD cannot see: the manifest's references hang together (every resid is defined and used,
 * the shared runtime is one page), and every icon it names exists in assets/ at the declared size.
 */
import * as fs from "fs";
import * as path from "path";
import { ASSETS, MANIFEST, ROOT } from "./paths";

const xml = fs.readFileSync(MANIFEST, "utf8");
const DEV_URL = "https://localhost:3000/";
/** The locales of English Excel: each gets the English function names and ribbon texts. */
const ENGLISH = ["en-US", "en-GB", "en-AU", "en-CA", "en-IN", "en-IE", "en-NZ", "en-ZA"];
/**
 * The English locales Office supports, the only ones a display name and a description may be localized
 * for: "You can localize the description and display name for only the locales that Office supports"
 * (https://learn.microsoft.com/office/dev/add-ins/develop/localization#control-localization-from-the-manifest),
 * whose list ("Overview of deploying languages for Microsoft 365 Apps") has English as en-us and en-gb.
 */
const OFFICE_ENGLISH = ["en-US", "en-GB"];

interface Resource {
  kind: string;
  id: string;
  value: string;
}

/** bt:Image, bt:Url and bt:String resources, by id. */
function resources(): Map<string, Resource> {
  const out = new Map<string, Resource>();
  for (const m of xml.matchAll(/<bt:(Image|Url|String)\s+id="([^"]+)"\s+DefaultValue="([^"]*)"/g)) {
    expect(out.has(m[2])).toBe(false); // ids are unique
    out.set(m[2], { kind: m[1], id: m[2], value: m[3] });
  }
  return out;
}

/** The resid of the first element named `tag` (e.g. `Runtime`, or `Page>\s*<SourceLocation`). */
function residOf(pattern: string): string {
  const m = new RegExp(`<${pattern}\\s+[^>]*resid="([^"]+)"`).exec(xml);
  if (!m) throw new Error(`no ${pattern} with a resid in manifest.xml`);
  return m[1];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const buf = fs.readFileSync(file);
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(buf.toString("ascii", 12, 16)).toBe("IHDR");
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** assets/ file for a dev-server URL. */
function assetFile(url: string): string {
  expect(url.startsWith(`${DEV_URL}assets/`)).toBe(true);
  return path.join(ASSETS, url.slice(`${DEV_URL}assets/`.length));
}

describe("manifest.xml references", () => {
  const defined = resources();
  const referenced = [...xml.matchAll(/\bresid="([^"]+)"/g)].map((m) => m[1]);

  test("every resid it references is defined", () => {
    const missing = referenced.filter((id) => !defined.has(id));
    expect(missing).toEqual([]);
  });

  test("every resource it defines is used", () => {
    const unused = [...defined.keys()].filter((id) => !referenced.includes(id));
    expect(unused).toEqual([]);
  });

  test("has a GUID for Id", () => {
    expect(xml).toMatch(/<Id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}<\/Id>/);
  });

  test("the functions' namespace is FIRMA", () => {
    const ns = defined.get(residOf("Namespace"));
    expect(ns).toMatchObject({ kind: "String", value: "FIRMA" });
  });

  test("the shared runtime is one page: runtime, functions page, function file and pane", () => {
    const runtime = residOf("Runtime");
    expect(xml).toMatch(/<Runtime\s+resid="[^"]+"\s+lifetime="long"\s*\/>/);
    expect(residOf("Page>\\s*<SourceLocation")).toBe(runtime);
    expect(residOf("FunctionFile")).toBe(runtime);
    expect(residOf('Action xsi:type="ShowTaskpane">[\\s\\S]*?<SourceLocation')).toBe(runtime);
    expect(defined.get(runtime)?.value).toBe(`${DEV_URL}taskpane.html`);
    expect(xml).toContain(`<SourceLocation DefaultValue="${DEV_URL}taskpane.html"/>`);
  });

  // CustomFunctions.Error is CustomFunctionsRuntime 1.2, its ErrorCode values 1.3 (src/functions/excel-results.ts uses both):
  // https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets
  test("requires the shared runtime and CustomFunctionsRuntime 1.3", () => {
    expect(xml).toMatch(/<Set Name="SharedRuntime" MinVersion="1\.1"\/>/);
    expect(xml).toMatch(/<Set Name="CustomFunctionsRuntime" MinVersion="1\.3"\/>/);
    expect(fs.readFileSync(path.join(ROOT, "src", "functions", "excel-results.ts"), "utf8")).toMatch(/CustomFunctions\.ErrorCode\b/);
  });

  test("the functions' script and metadata are the build's outputs", () => {
    expect(defined.get(residOf("Script>\\s*<SourceLocation"))?.value).toBe(`${DEV_URL}functions.js`);
    expect(defined.get(residOf("Metadata>\\s*<SourceLocation"))?.value).toBe(`${DEV_URL}functions.json`);
  });

  // One metadata file per language, chosen by a bt:Override on the metadata URL resource:
  // https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-naming#localize-your-add-in
  test("the metadata URL: Romanian by default, English for every English locale, and no other resource is overridden to it", () => {
    expect(xml).toMatch(/<DefaultLocale>ro-RO<\/DefaultLocale>/);
    const id = residOf("Metadata>\\s*<SourceLocation");
    const element = new RegExp(`<bt:Url id="${id}" DefaultValue="[^"]*">([\\s\\S]*?)</bt:Url>`).exec(xml);
    expect(element).not.toBeNull();
    const overrides = [...element![1].matchAll(/<bt:Override Locale="([^"]+)" Value="([^"]+)"\/>/g)].map((m) => [m[1], m[2]]);
    expect(overrides).toEqual(ENGLISH.map((l) => [l, `${DEV_URL}functions-en.json`]));
    expect(xml.split("functions-en.json").length - 1).toBe(ENGLISH.length);
  });

  // An override is matched by its locale: "Using the language name alone … isn't supported across all
  // combinations of Office client applications and platforms"
  // (https://learn.microsoft.com/office/dev/add-ins/develop/localization#control-localization-from-the-manifest).
  test("every English text is given to each English locale, the same for all: the display name and description to Office's own (en-US, en-GB), the resources to every English Excel", () => {
    const owners = [...xml.matchAll(/<((?:bt:)?\w+)\s+(?:id="([^"]+)"\s+)?DefaultValue="[^"]*">([\s\S]*?)<\/\1>/g)];
    const overridden = owners.filter((m) => /Override/.test(m[3]));
    expect(overridden.map((m) => m[2] ?? m[1])).toEqual(
      expect.arrayContaining([
        "DisplayName",
        "Description",
        "JSON.Url",
        "GetStarted.Title",
        "GetStarted.Description",
        "TaskpaneButton.Tooltip",
      ]),
    );
    for (const m of overridden) {
      const pairs = [...m[3].matchAll(/<(?:bt:)?Override Locale="([^"]+)" Value="([^"]*)"\/>/g)];
      const owner = m[2] ?? m[1];
      expect([owner, pairs.map((p) => p[1])]).toEqual([
        owner,
        owner === "DisplayName" || owner === "Description" ? OFFICE_ENGLISH : ENGLISH,
      ]);
      expect(new Set(pairs.map((p) => p[2])).size).toBe(1);
    }
  });
});

describe("manifest.xml icons", () => {
  const defined = resources();

  test("each image resource is a PNG in assets/ of the size its id and name say", () => {
    const images = [...defined.values()].filter((r) => r.kind === "Image");
    expect(images.map((r) => r.id).sort()).toEqual(["Icon.16x16", "Icon.32x32", "Icon.80x80"]);
    for (const img of images) {
      const size = Number(/^Icon\.(\d+)x\1$/.exec(img.id)?.[1]);
      expect(img.value).toBe(`${DEV_URL}assets/icon-${size}.png`);
      expect(pngSize(assetFile(img.value))).toEqual({ width: size, height: size });
    }
  });

  test("each <bt:Image size=N> in a ribbon Icon points at an image of size N", () => {
    const uses = [...xml.matchAll(/<bt:Image\s+size="(\d+)"\s+resid="([^"]+)"\s*\/>/g)];
    expect(uses.length).toBeGreaterThanOrEqual(3);
    for (const [, size, resid] of uses) {
      expect(pngSize(assetFile(defined.get(resid)!.value))).toEqual({
        width: Number(size),
        height: Number(size),
      });
    }
  });

  // Task pane add-in: IconUrl 32×32 (https://learn.microsoft.com/javascript/api/manifest/iconurl),
  // HighResolutionIconUrl 64×64 (https://learn.microsoft.com/javascript/api/manifest/highresolutioniconurl).
  test("IconUrl is 32×32 and HighResolutionIconUrl 64×64", () => {
    const icon = /<IconUrl DefaultValue="([^"]+)"/.exec(xml)![1];
    const hiRes = /<HighResolutionIconUrl DefaultValue="([^"]+)"/.exec(xml)![1];
    expect(pngSize(assetFile(icon))).toEqual({ width: 32, height: 32 });
    expect(pngSize(assetFile(hiRes))).toEqual({ width: 64, height: 64 });
  });

  test("every dev-server URL names a file the build produces", () => {
    const urls = [...xml.matchAll(/"(https:\/\/localhost:3000\/[^"]*)"/g)].map((m) => m[1].slice(DEV_URL.length));
    // "" is the add-in's own address: the support and Learn More links (the build sets FIRMA_SUPPORT_URL there)
    const built = new Set(["", "functions.js", "functions.json", "functions-en.json", "taskpane.html"]);
    for (const rel of urls) {
      if (rel.startsWith("assets/")) expect(fs.existsSync(path.join(ASSETS, rel.slice(7)))).toBe(true);
      else expect(built.has(rel)).toBe(true);
    }
  });
});
