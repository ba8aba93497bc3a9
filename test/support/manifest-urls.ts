/**
 * What a manifest of the built add-in makes Excel load: its runtime page (Taskpane.Url, with its query:
 * the linked edition's says `legate=1`) and its default metadata file (JSON.Url), relative to the add-in's
 * address. The stand-ins open the page and read the functions by them, as Excel does (docs/excel.md,
 * "Two manifests").
 */
import * as fs from "fs";
import * as path from "path";

export type Manifest = "manifest.xml" | "manifest-legate.xml";

export function manifestUrls(dist: string, manifest: Manifest): { page: string; metadata: string } {
  const xml = fs.readFileSync(path.join(dist, manifest), "utf8");
  const url = (id: string) => {
    const m = new RegExp(`<bt:Url id="${id}" DefaultValue="([^"]+)"`).exec(xml);
    if (!m) throw new Error(`${manifest} has no ${id}`);
    const u = new URL(m[1].replace(/&amp;/g, "&"));
    return `${u.pathname.replace(/^\//, "")}${u.search}`;
  };
  return { page: url("Taskpane.Url"), metadata: url("JSON.Url").split("?")[0] };
}
