/**
 * Every custom function has a helpUrl, and it lands on a page the build made (AppSource certification
 * policy 1120.5.1; `helpUrl` in https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json).
 * In both metadata files, on the deployment's address (FIRMA_ADDIN_URL, as the manifest's URLs): Romanian
 * functions(-legate).json → ajutor.html#<id>, English functions(-legate)-en.json → help.html#<id>; each page has a section
 * with that id naming the function as Excel of that language does, and a key section (#cheie) that links
 * to FIRMA_KEY_URL when the build has one. Also served by `firma serve` (it serves dist/ as it is).
 * The builds: test/support/builds.js (the development one and the production one for DEPLOY_URL).
 */
import * as fs from "fs";
import * as path from "path";
import { FUNCTION_TEXTS } from "../../src/shared/function-names";

const { DEPLOY_URL, KEY_URL, ensureBuild } = require("../support/builds") as {
  DEPLOY_URL: string;
  KEY_URL: string;
  ensureBuild(kind: "dev" | "deploy"): Promise<string>;
};

let dev: string;
let prod: string;
beforeAll(async () => {
  [dev, prod] = await Promise.all([ensureBuild("dev"), ensureBuild("deploy")]);
}, 240_000);

interface Fn {
  id: string;
  name: string;
  helpUrl?: string;
  parameters: { name: string; optional?: boolean }[];
}
const read = (dir: string, f: string) => fs.readFileSync(path.join(dir, f), "utf8");
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
/**
 * The inner HTML of the section with this id (the pages are the build's own, one section per function;
 * a production build minifies them, so attribute quotes may be gone).
 */
function section(html: string, id: string): string | undefined {
  return new RegExp(`<section id="?${id}"?[\\s>][^>]*>?([\\s\\S]*?)</section>`).exec(html)?.[1];
}
/** The text of the first `tag` in `html`. */
const first = (html: string, tag: string) =>
  unescape(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(html)?.[1].replace(/<[^>]+>/g, "") ?? "");
const hrefs = (html: string) => [...html.matchAll(/<a [^>]*href=(?:"([^"]*)"|([^\s>"]+))/g)].map((m) => unescape(m[1] ?? m[2]));
const functionsOf = (dir: string, file: string): Fn[] => JSON.parse(read(dir, file)).functions;

// The linked edition's files hold every function (the default ones all but the load service): one help page serves both.
describe.each([
  ["functions-legate.json", "ajutor.html", "ro"],
  ["functions-legate-en.json", "help.html", "en"],
] as const)("%s", (file, page, lang) => {
  test.each([
    ["production, for FIRMA_ADDIN_URL", () => prod, () => DEPLOY_URL],
    ["development", () => dev, () => "https://localhost:3000/"],
  ])("%s: every function's helpUrl is its section of the built help page", (_label, dir, base) => {
    const fns = functionsOf(dir(), file);
    expect(fns.length).toBe(Object.keys(FUNCTION_TEXTS).length);
    const html = read(dir(), page);
    expect(html).toMatch(new RegExp(`<html lang="?${lang}"?>`));
    for (const f of fns) {
      expect([f.id, f.helpUrl]).toEqual([f.id, `${base()}${page}#${f.id}`]);
      const part = section(html, f.id) ?? "";
      expect([f.id, first(part, "h2")]).toEqual([f.id, `FIRMA.${f.name}`]);
      // each parameter by the name Excel shows, optional ones in brackets, with the language's separator
      const syntax = first(part, "code");
      const sep = lang === "ro" ? "; " : ", ";
      expect(syntax).toBe(`=FIRMA.${f.name}(${f.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(sep)})`);
    }
    expect(new Set(fns.map((f) => f.helpUrl)).size).toBe(fns.length);
  });

  test("the key section links to FIRMA_KEY_URL in the build that has one, and says where a key comes from in the one that has not", () => {
    expect(hrefs(section(read(prod, page), "cheie")!)).toEqual([KEY_URL]);
    const without = section(read(dev, page), "cheie")!;
    expect(hrefs(without)).toEqual([]);
    expect(unescape(without)).toMatch(lang === "ro" ? /cheia se generează în contul/i : /key is generated in your account/i);
  });
});

test("a help page runs no script and carries the table's texts as text (a description with markup would be escaped)", () => {
  for (const page of ["ajutor.html", "help.html"]) {
    const html = read(prod, page);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(FUNCTION_TEXTS.DENUMIRE.description[page === "help.html" ? "en" : "ro"].replace(/&/g, "&amp;"));
  }
  const { helpPage } = require("../../scripts/help-pages") as {
    helpPage(g: unknown, t: unknown, lang: string, pages: Record<string, string>, key: string): string;
  };
  const evil = {
    X1: { name: { ro: "XUNU", en: "XONE" }, description: { ro: "<img src=x onerror=alert(1)>", en: "e" }, parameters: [] },
  };
  const html = helpPage({ functions: [{ id: "X1", parameters: [] }] }, evil, "ro", { ro: "ajutor.html", en: "help.html" }, "");
  expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  expect(html).not.toMatch(/<img/);
});

test("the pane's get-a-key link goes to FIRMA_KEY_URL in a build that has one", () => {
  expect(read(prod, "taskpane.js") + read(prod, "shared.js")).toContain(KEY_URL);
});
