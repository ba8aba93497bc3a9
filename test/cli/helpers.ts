/** Shared helpers for the CLI workbook-layer tests. */
import { spawnSync } from "child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "fs";
import { join, resolve } from "path";
import { unzipSync, strFromU8 } from "fflate";
import { WritablePackage } from "../../src/cli/writable-package";

/** The real Excel-saved workbook (read-only; never copied into the project). */
export const FIXTURE = resolve(__dirname, "..", "..", "..", "shared", "fixtures", "excel-saved-custom-functions.xlsx");

export function fixtureBytes(): Uint8Array {
  if (!existsSync(FIXTURE)) throw new Error(`fixture missing: ${FIXTURE} (shared/ must sit beside the repository)`);
  return new Uint8Array(readFileSync(FIXTURE));
}

/** Entries of a zip through an independent reader (fflate), name → uncompressed text. */
export function unzipText(bytes: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, data] of Object.entries(unzipSync(bytes))) out.set(name, strFromU8(data));
  return out;
}

/** Entries of a zip through fflate, name → bytes. */
export function unzipBytes(bytes: Uint8Array): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(bytes)));
}

/** The `<c r="ref" ...>...</c>` (or empty-element) text of a cell in a sheet XML. */
export function cellXml(sheetXml: string, ref: string): string | null {
  const m = new RegExp(`<c r="${ref}"(?:[^>]*/>|[^>]*>[\\s\\S]*?</c>)`).exec(sheetXml);
  return m ? m[0] : null;
}

/** Byte ranges of every local entry (header + data) of a zip, by name, read straight from the file. */
export function rawEntries(bytes: Uint8Array): Map<string, Uint8Array> {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Map<string, Uint8Array>();
  let p = 0;
  while (p + 30 <= bytes.length && dv.getUint32(p, true) === 0x04034b50) {
    const flags = dv.getUint16(p + 6, true);
    const csize = dv.getUint32(p + 18, true);
    const nl = dv.getUint16(p + 26, true);
    const el = dv.getUint16(p + 28, true);
    if (flags & 8) throw new Error("rawEntries: data descriptors not handled");
    const name = strFromU8(bytes.subarray(p + 30, p + 30 + nl));
    const end = p + 30 + nl + el + csize;
    out.set(name, bytes.subarray(p, end));
    p = end;
  }
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/**
 * A minimal hand-written workbook: each sheet's `<sheetData>` content given as XML, a shared
 * string table, optional extra parts. For reader tests of shapes the builder never writes.
 */
export function handMadeWorkbook(opts: {
  sheets: Array<{
    name: string;
    sheetData: string;
    extra?: string;
    prefix?: string;
    dimension?: string;
  }>;
  sharedStrings?: string[];
  sstXml?: string;
  metadata?: boolean;
}): Uint8Array {
  const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const parts: Array<[string, string]> = [];
  const n = opts.sheets.length;
  parts.push([
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      opts.sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join("") +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
  ]);
  parts.push([
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="/xl/workbook.xml"/></Relationships>`,
  ]);
  parts.push([
    "xl/workbook.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets>` +
      opts.sheets
        .map((s, i) => `<sheet name="${s.name.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join("") +
      `</sheets></workbook>`,
  ]);
  parts.push([
    "xl/_rels/workbook.xml.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      opts.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${R}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("") +
      `<Relationship Id="rId${n + 1}" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>` +
      (opts.metadata ? `<Relationship Id="rId${n + 2}" Type="${R}/sheetMetadata" Target="metadata.xml"/>` : "") +
      `</Relationships>`,
  ]);
  opts.sheets.forEach((s, i) => {
    const p = s.prefix ?? "";
    const xmlns = p ? `xmlns:${p.slice(0, -1)}="${MAIN}"` : `xmlns="${MAIN}"`;
    parts.push([
      `xl/worksheets/sheet${i + 1}.xml`,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<${p}worksheet ${xmlns} xmlns:r="${R}">${s.dimension ? `<${p}dimension ref="${s.dimension}"/>` : ""}<${p}sheetData>${s.sheetData}</${p}sheetData>${s.extra ?? ""}</${p}worksheet>`,
    ]);
  });
  parts.push([
    "xl/sharedStrings.xml",
    opts.sstXml ??
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${MAIN}">` +
        (opts.sharedStrings ?? []).map((s) => `<si><t>${s}</t></si>`).join("") +
        `</sst>`,
  ]);
  if (opts.metadata) {
    parts.push([
      "xl/metadata.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><metadata xmlns="${MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`,
    ]);
  }
  return WritablePackage.create(parts).toBytes();
}

/** LibreOffice is installed (Debian: libreoffice-calc). */
export function hasSoffice(): boolean {
  const r = spawnSync("soffice", ["--version"], { encoding: "utf8", timeout: 60_000 });
  return r.status === 0 && /LibreOffice/i.test(r.stdout);
}

/** Converts every sheet to CSV (UTF-8); returns sheet name → rows of fields. */
export function toCsv(dir: string, file: string, bytes: Uint8Array): Map<string, string[][]> {
  writeFileSync(join(dir, file), bytes);
  const r = spawnSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(dir, "profile")}`,
      "--headless",
      "--convert-to",
      "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
      "--outdir",
      dir,
      join(dir, file),
    ],
    { encoding: "utf8", timeout: 150_000 },
  );
  if (r.status !== 0 || /Error/i.test(r.stderr ?? "")) throw new Error(`soffice failed (${r.status}): ${r.stderr}\n${r.stdout}`);
  const base = file.replace(/\.xlsx$/, "");
  const out = new Map<string, string[][]>();
  for (const f of readdirSync(dir)) {
    if (!f.startsWith(base + "-") || !f.endsWith(".csv")) continue;
    const text = readFileSync(join(dir, f), "utf8");
    out.set(
      f.slice(base.length + 1, -4),
      text
        .split(/\r?\n/)
        .filter((l) => l !== "")
        .map((l) => l.split(",")),
    );
  }
  return out;
}

/**
 * Opens CSV files in LibreOffice as a person would, formulas evaluated (the import's "Evaluate
 * formulas", token 13 of the CSV filter options: a field that begins with "=" becomes a formula),
 * UTF-8, comma-separated, and saves each as .xlsx beside it; returns the .xlsx paths in order.
 */
export function openCsvInLibreOffice(dir: string, files: readonly string[]): string[] {
  const r = spawnSync(
    "soffice",
    [
      `-env:UserInstallation=file://${join(dir, "profile")}`,
      "--headless",
      "--infilter=CSV:44,34,76,1,,0,false,true,false,false,false,-1,true",
      "--convert-to",
      "xlsx",
      "--outdir",
      dir,
      ...files,
    ],
    { encoding: "utf8", timeout: 150_000 },
  );
  if (r.status !== 0 || /Error/i.test(r.stderr ?? "")) throw new Error(`soffice failed (${r.status}): ${r.stderr}\n${r.stdout}`);
  return files.map((f) => join(dir, f.replace(/^.*\//, "").replace(/\.csv$/i, ".xlsx")));
}

/**
 * The credits a `firma refresh` report says it spent (Romanian words), and how many of them were calls
 * without an answer that the service may not have charged (0 unless the report says "cel mult").
 */
export function reportedCredits(out: string): { spent: number; uncertain: number } {
  const n = (s: string | undefined) => Number((s ?? "0").replace(/\./g, ""));
  return {
    spent: n(/credite cheltuite: (?:cel mult )?([\d.]+)/.exec(out)?.[1] ?? "NaN"),
    uncertain: n(/poate să nu fi taxat ([\d.]+) /.exec(out)?.[1]),
  };
}

/** What the service charged is what the report says, or within the calls it says may not have been charged. */
export function expectReportedCharge(out: string, charged: number): void {
  const { spent, uncertain } = reportedCredits(out);
  expect(charged).toBeLessThanOrEqual(spent);
  expect(charged).toBeGreaterThanOrEqual(spent - uncertain);
}
