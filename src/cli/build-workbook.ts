/**
 * Generates a workbook in the form Excel itself saves one that uses the FIRMA add-in, from a
 * simple description: rows of constants and FIRMA formulas. Modelled on what a real
 * Excel-saved file holds (see shared/fixtures/excel-saved-custom-functions.xlsx):
 *
 * - a formula of the loaded add-in is stored as `_xldudf_FIRMA_X(...)` in a dynamic-array
 *   cell: `<c cm="1"><f t="array" ref="..">..</f><v>cached</v></c>`, text results `t="str"`;
 *   a spilled cached result keeps the formula in the top-left cell, `ref` covering the spill,
 *   and plain values in the other cells;
 * - `form: "typed"` reproduces a formula typed while the add-in was not loaded:
 *   `<c t="e" cm="1"><f t="array" aca="1" ref=".." ca="1">FIRMA.X(...)</f><v>#NAME?</v></c>`;
 * - `form: "plain"` is an ordinary (non-array) formula `<f>_xldudf_FIRMA_X(..)</f>`;
 * - xl/metadata.xml carries the dynamic-array cell metadata `cm="1"` points to;
 * - xl/webextensions/ binds the add-in (task pane + the custom function ids used);
 * - constants as shared strings, numbers, booleans, errors; a small styles part.
 *
 * The output is deterministic: the same description gives the same bytes.
 */
import { XlsxPackage } from "./xlsx-package";
import { Box, cellKey, formatBox, formatCellRef } from "./a1";
import { matchNamespaceFunction, toXldudfForm, tokenize } from "./formula";
import { CellError } from "./types";
import { escapeXmlAttr, escapeXmlText, encodeOoxmlString } from "./xml";
import { encodeValue } from "./patch";
import { withControlDigit } from "../engine/cui";

export type BuildValue = string | number | boolean | CellError | null;

export type StyleName = "default" | "header" | "integer" | "text" | "decimal";

export interface FormulaSpec {
  /** As typed in Excel, with or without "=": `=FIRMA.CA(A2,2024)`. Use "," between arguments. */
  formula: string;
  /** The result saved with it; a 2-D array is a spilled result. Default: #N/A (#NAME? for "typed"). */
  cached?: BuildValue | BuildValue[][];
  /** "xldudf" (default): saved with the add-in loaded; "typed": saved without it; "plain": ordinary formula. */
  form?: "xldudf" | "typed" | "plain";
  style?: StyleName;
}

export type BuildCell = BuildValue | undefined | FormulaSpec | { value: BuildValue; style: StyleName };

export interface BuildSheet {
  name: string;
  /** Rows from row 1 (or `startRow`), cells from column A. */
  rows: BuildCell[][];
  startRow?: number;
  /** Column widths in characters, from column A. */
  columnWidths?: number[];
  state?: "visible" | "hidden";
}

export interface AddinBinding {
  /** The add-in's manifest id. */
  id?: string;
  version?: string;
  /** "developer"/"Registry" for a sideloaded add-in (as in the fixture); "en-US"/"OMEX" for AppSource. */
  store?: string;
  storeType?: string;
  /** Open the task pane with the document. */
  autoShowTaskpane?: boolean;
}

export interface BuildSpec {
  sheets: BuildSheet[];
  /** Custom functions namespace. @default "FIRMA" */
  namespace?: string;
  /** The add-in binding (xl/webextensions); false for none. @default {} */
  addin?: AddinBinding | false;
  creator?: string;
  /** ISO timestamp for docProps/core.xml. @default "2025-01-01T00:00:00Z" */
  created?: string;
}

/** The FIRMA manifest id (manifest.xml `<Id>`). */
export const FIRMA_ADDIN_ID = "57d8afee-0613-449c-a2e8-0f59e5681660";

const NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const NS_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006";
const NS_X14AC = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac";
const NS_XR = "http://schemas.microsoft.com/office/spreadsheetml/2014/revision";
const NS_XR2 = "http://schemas.microsoft.com/office/spreadsheetml/2015/revision2";
const NS_XR3 = "http://schemas.microsoft.com/office/spreadsheetml/2016/revision3";
const NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
/** Identifies the custom-functions extension inside a web extension part (Excel's constant). */
const CUSTOM_FUNCTIONS_EXT_URI = "{7C84B067-C214-45C3-A712-C9D94CD141B2}";
/** Identifies the dynamic-array properties extension in the metadata part (Excel's constant). */
const DYNAMIC_ARRAY_EXT_URI = "{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}";

const STYLE_INDEX: Record<StyleName, number> = {
  default: 0,
  header: 1,
  integer: 2,
  text: 3,
  decimal: 4,
};

/** A deterministic GUID from a seed (FNV-1a based; not random, not for security). */
export function stableGuid(seed: string): string {
  const hex: string[] = [];
  let h = 0x811c9dc5;
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < seed.length; i++) {
      h ^= seed.charCodeAt(i) + round;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= round * 0x9e3779b9;
    h = Math.imul(h, 0x01000193) >>> 0;
    hex.push(h.toString(16).padStart(8, "0").toUpperCase());
  }
  const s = hex.join("");
  return `{${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}}`;
}

function isFormula(c: BuildCell): c is FormulaSpec {
  return typeof c === "object" && c !== null && "formula" in c;
}
function isStyled(c: BuildCell): c is { value: BuildValue; style: StyleName } {
  return typeof c === "object" && c !== null && "value" in c && "style" in c;
}

class SharedStrings {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  count = 0;
  add(s: string): number {
    this.count++;
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

function constantCell(ref: string, value: BuildValue, style: number, sst: SharedStrings): string {
  const s = style ? ` s="${style}"` : "";
  if (value === null) return style ? `<c r="${ref}"${s}/>` : "";
  if (typeof value === "string") return `<c r="${ref}"${s} t="s"><v>${sst.add(value)}</v></c>`;
  const enc = encodeValue(value);
  return `<c r="${ref}"${s}${enc.t ? ` t="${enc.t}"` : ""}><v>${enc.v}</v></c>`;
}

interface PendingCell {
  col: number;
  xml: string;
}

/** Builds the .xlsx bytes for a description. Throws on overlapping spills or bad formulas. */
export function buildWorkbook(spec: BuildSpec): Uint8Array {
  const ns = (spec.namespace ?? "FIRMA").toUpperCase();
  if (spec.sheets.length === 0) throw new Error("a workbook needs at least one sheet");
  const sst = new SharedStrings();
  const functionIds = new Set<string>();
  let usesDynamicArrays = false;
  const sheetXml: string[] = [];

  spec.sheets.forEach((sheet, sheetIndex) => {
    const rows = new Map<number, PendingCell[]>();
    const taken = new Map<number, string>(); // cellKey → what occupies it
    let used: Box | null = null;
    const put = (row: number, col: number, xml: string, what: string) => {
      const k = cellKey(row, col);
      if (taken.has(k)) throw new Error(`${sheet.name}!${formatCellRef(row, col)}: ${what} overlaps ${taken.get(k)}`);
      taken.set(k, what);
      if (!xml) return;
      if (!rows.has(row)) rows.set(row, []);
      rows.get(row)!.push({ col, xml });
      const b: Box = { top: row, left: col, bottom: row, right: col };
      used = used
        ? {
            top: Math.min(used.top, row),
            left: Math.min(used.left, col),
            bottom: Math.max(used.bottom, row),
            right: Math.max(used.right, col),
          }
        : b;
    };
    const start = sheet.startRow ?? 1;
    // formulas first, so a constant inside a declared spill is reported as overlapping it
    const cells: Array<{ row: number; col: number; cell: BuildCell }> = [];
    sheet.rows.forEach((r, i) => r.forEach((cell, j) => cells.push({ row: start + i, col: j + 1, cell })));
    cells.sort((a, b) => Number(isFormula(b.cell)) - Number(isFormula(a.cell)));
    for (const { row, col, cell } of cells) {
      const ref = formatCellRef(row, col);
      if (cell === undefined) continue;
      if (!isFormula(cell)) {
        const value = isStyled(cell) ? cell.value : (cell as BuildValue);
        const style = isStyled(cell) ? STYLE_INDEX[cell.style] : 0;
        put(row, col, constantCell(ref, value, style, sst), "a constant");
        continue;
      }
      const form = cell.form ?? "xldudf";
      const typed = cell.formula.startsWith("=") ? cell.formula.slice(1) : cell.formula;
      for (const t of tokenize(typed)) {
        if (t.kind !== "func") continue;
        const m = matchNamespaceFunction(t.text, ns);
        if (m) functionIds.add(`_xldudf_${ns}_${m.name.replace(/\./g, "_")}`);
      }
      const text = form === "typed" ? typed : toXldudfForm(typed, ns);
      const style = cell.style ? STYLE_INDEX[cell.style] : 0;
      const s = style ? ` s="${style}"` : "";
      const cached = cell.cached === undefined ? ({ error: form === "typed" ? "#NAME?" : "#N/A" } as CellError) : cell.cached;
      const grid = Array.isArray(cached) ? cached : [[cached]];
      if (grid.length === 0 || grid[0].length === 0 || grid.some((r) => r.length !== grid[0].length)) {
        throw new Error(`${sheet.name}!${ref}: the cached array must be rectangular and non-empty`);
      }
      const box: Box = {
        top: row,
        left: col,
        bottom: row + grid.length - 1,
        right: col + grid[0].length - 1,
      };
      if (form === "plain" && (grid.length > 1 || grid[0].length > 1))
        throw new Error(`${sheet.name}!${ref}: a plain formula cannot spill`);
      const top = encodeValue(grid[0][0]);
      const fText = escapeXmlText(text);
      let xml: string;
      if (form === "plain") {
        xml = `<c r="${ref}"${s}${top.t ? ` t="${top.t}"` : ""}><f>${fText}</f><v>${top.v}</v></c>`;
      } else {
        usesDynamicArrays = true;
        const fAttrs = form === "typed" ? `t="array" aca="1" ref="${formatBox(box)}" ca="1"` : `t="array" ref="${formatBox(box)}"`;
        xml = `<c r="${ref}"${s}${top.t ? ` t="${top.t}"` : ""} cm="1"><f ${fAttrs}>${fText}</f><v>${top.v}</v></c>`;
      }
      put(row, col, xml, `the formula in ${ref}`);
      grid.forEach((line, i) =>
        line.forEach((v, j) => {
          if (i === 0 && j === 0) return;
          const enc = encodeValue(v);
          put(
            row + i,
            col + j,
            `<c r="${formatCellRef(row + i, col + j)}"${enc.t ? ` t="${enc.t}"` : ""}><v>${enc.v}</v></c>`,
            `the spill of ${ref}`,
          );
        }),
      );
    }
    const sortedRows = [...rows.keys()].sort((a, b) => a - b);
    let data = "";
    for (const r of sortedRows) {
      const cs = rows.get(r)!.sort((a, b) => a.col - b.col);
      data += `<row r="${r}" spans="${cs[0].col}:${cs[cs.length - 1].col}" x14ac:dyDescent="0.2">${cs.map((c) => c.xml).join("")}</row>`;
    }
    const dim = used ? formatBox(used) : "A1";
    const cols = sheet.columnWidths?.length
      ? `<cols>${sheet.columnWidths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join("")}</cols>`
      : "";
    const selected = sheetIndex === 0 ? ' tabSelected="1"' : "";
    sheetXml.push(
      DECL +
        `<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_R}" xmlns:mc="${NS_MC}" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="${NS_X14AC}" xmlns:xr="${NS_XR}" xmlns:xr2="${NS_XR2}" xmlns:xr3="${NS_XR3}" xr:uid="${stableGuid("sheet:" + sheet.name)}">` +
        `<dimension ref="${dim}"/><sheetViews><sheetView${selected} workbookViewId="0"/></sheetViews>` +
        `<sheetFormatPr baseColWidth="10" defaultRowHeight="16" x14ac:dyDescent="0.2"/>${cols}` +
        (data ? `<sheetData>${data}</sheetData>` : "<sheetData/>") +
        `<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
    );
  });

  const addin =
    spec.addin === false
      ? null
      : {
          id: FIRMA_ADDIN_ID,
          version: "1.0.0.0",
          store: "developer",
          storeType: "Registry",
          ...(spec.addin ?? {}),
        };
  const n = spec.sheets.length;
  const parts: Array<[string, string]> = [];

  // [Content_Types].xml
  let ct = `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`;
  ct += `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`;
  for (let i = 1; i <= n; i++)
    ct += `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`;
  ct += `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>`;
  ct += `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`;
  if (usesDynamicArrays)
    ct += `<Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"/>`;
  if (addin) {
    ct += `<Override PartName="/xl/webextensions/taskpanes.xml" ContentType="application/vnd.ms-office.webextensiontaskpanes+xml"/>`;
    ct += `<Override PartName="/xl/webextensions/webextension1.xml" ContentType="application/vnd.ms-office.webextension+xml"/>`;
  }
  ct += `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`;
  parts.push(["[Content_Types].xml", ct]);

  // package relationships
  let rootRels = `${DECL}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="${REL}/extended-properties" Target="docProps/app.xml"/>`;
  if (addin)
    rootRels += `<Relationship Id="rId4" Type="http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes" Target="xl/webextensions/taskpanes.xml"/>`;
  rootRels += "</Relationships>";
  parts.push(["_rels/.rels", rootRels]);

  // workbook
  let wb = `${DECL}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_R}"><fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="10322"/><workbookPr/><bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="17000"/></bookViews><sheets>`;
  spec.sheets.forEach((s, i) => {
    const state = s.state === "hidden" ? ' state="hidden"' : "";
    wb += `<sheet name="${escapeXmlAttr(s.name)}" sheetId="${i + 1}"${state} r:id="rId${i + 1}"/>`;
  });
  wb += `</sheets><calcPr calcId="191029"/></workbook>`;
  parts.push(["xl/workbook.xml", wb]);

  let wbRels = `${DECL}<Relationships xmlns="${NS_PKG_REL}">`;
  for (let i = 1; i <= n; i++) wbRels += `<Relationship Id="rId${i}" Type="${REL}/worksheet" Target="worksheets/sheet${i}.xml"/>`;
  wbRels += `<Relationship Id="rId${n + 1}" Type="${REL}/styles" Target="styles.xml"/>`;
  wbRels += `<Relationship Id="rId${n + 2}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`;
  if (usesDynamicArrays) wbRels += `<Relationship Id="rId${n + 3}" Type="${REL}/sheetMetadata" Target="metadata.xml"/>`;
  wbRels += "</Relationships>";
  parts.push(["xl/_rels/workbook.xml.rels", wbRels]);

  sheetXml.forEach((x, i) => parts.push([`xl/worksheets/sheet${i + 1}.xml`, x]));

  parts.push([
    "xl/styles.xml",
    `${DECL}<styleSheet xmlns="${NS_MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.00"/></numFmts>` +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
      `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
      `<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
      `<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
      `<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>` +
      `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/></styleSheet>`,
  ]);

  let sstXml = `${DECL}<sst xmlns="${NS_MAIN}" count="${sst.count}" uniqueCount="${sst.list.length}">`;
  for (const s of sst.list) {
    const space = /^\s|\s$/.test(s) ? ' xml:space="preserve"' : "";
    sstXml += `<si><t${space}>${escapeXmlText(encodeOoxmlString(s))}</t></si>`;
  }
  sstXml += "</sst>";
  parts.push(["xl/sharedStrings.xml", sstXml]);

  if (usesDynamicArrays) {
    parts.push([
      "xl/metadata.xml",
      `${DECL}<metadata xmlns="${NS_MAIN}" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
        `<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>` +
        `<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="${DYNAMIC_ARRAY_EXT_URI}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>` +
        `<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`,
    ]);
  }

  if (addin) {
    const visible = addin.autoShowTaskpane ? "1" : "0";
    parts.push([
      "xl/webextensions/taskpanes.xml",
      `${DECL}<wetp:taskpanes xmlns:wetp="http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"><wetp:taskpane dockstate="right" visibility="${visible}" width="350" row="0"><wetp:webextensionref xmlns:r="${NS_R}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>`,
    ]);
    parts.push([
      "xl/webextensions/_rels/taskpanes.xml.rels",
      `${DECL}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="http://schemas.microsoft.com/office/2011/relationships/webextension" Target="webextension1.xml"/></Relationships>`,
    ]);
    const props = addin.autoShowTaskpane
      ? `<we:properties><we:property name="Office.AutoShowTaskpaneWithDocument" value="true"/></we:properties>`
      : "<we:properties/>";
    const ids = [...functionIds]
      .sort()
      .map((id) => `<we:customFunctionIds>${escapeXmlText(id)}</we:customFunctionIds>`)
      .join("");
    const ext = ids
      ? `<we:extLst><a:ext xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" uri="${CUSTOM_FUNCTIONS_EXT_URI}"><we:customFunctionIdList>${ids}</we:customFunctionIdList></a:ext></we:extLst>`
      : "";
    parts.push([
      "xl/webextensions/webextension1.xml",
      `${DECL}<we:webextension xmlns:we="http://schemas.microsoft.com/office/webextensions/webextension/2010/11" id="${stableGuid("webextension:" + addin.id)}">` +
        `<we:reference id="${escapeXmlAttr(addin.id)}" version="${escapeXmlAttr(addin.version)}" store="${escapeXmlAttr(addin.store)}" storeType="${escapeXmlAttr(addin.storeType)}"/>` +
        `<we:alternateReferences/>${props}<we:bindings/><we:snapshot xmlns:r="${NS_R}"/>${ext}</we:webextension>`,
    ]);
  }

  const created = spec.created ?? "2025-01-01T00:00:00Z";
  const creator = escapeXmlText(spec.creator ?? "FIRMA");
  parts.push([
    "docProps/core.xml",
    `${DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
      `<dc:creator>${creator}</dc:creator><cp:lastModifiedBy>${creator}</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${created}</dcterms:modified></cp:coreProperties>`,
  ]);
  // The application Excel names here. It matters beyond looks: LibreOffice keeps the saved values
  // of a workbook that Excel wrote, and recalculates (turning FIRMA formulas into #NAME?) one that
  // another program wrote; these workbooks stand for what Excel saves.
  parts.push([
    "docProps/app.xml",
    `${DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
      `<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>` +
      `<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>${n}</vt:i4></vt:variant></vt:vector></HeadingPairs>` +
      `<TitlesOfParts><vt:vector size="${n}" baseType="lpstr">${spec.sheets.map((s) => `<vt:lpstr>${escapeXmlText(s.name)}</vt:lpstr>`).join("")}</vt:vector></TitlesOfParts>` +
      `<LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged><AppVersion>16.0300</AppVersion></Properties>`,
  ]);

  return XlsxPackage.create(parts).toBytes();
}

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoOptions {
  /** Data rows (below the header). @default 500 */
  rows?: number;
  /** Valid CUIs to draw from (numbers or "RO…" strings); default: generated ones with a correct control digit. */
  cuis?: Array<number | string>;
  /** The FIRMA formula columns, `{cui}` standing for the CUI cell (e.g. "A2"). */
  columns?: Array<{ header: string; formula: string }>;
  /** The spilled history formula (cell H2 of the first sheet); `{cui}` as above. */
  history?: { formula: string; cached: BuildValue[][] } | false;
  seed?: number;
  form?: FormulaSpec["form"];
}

export const DEMO_COLUMNS: Array<{ header: string; formula: string }> = [
  { header: "Denumire", formula: "=FIRMA.DENUMIRE({cui})" },
  { header: "Stare", formula: "=FIRMA.STARE({cui})" },
  { header: "Județ", formula: "=FIRMA.JUDET({cui})" },
  { header: "Cifra de afaceri 2024", formula: "=FIRMA.CA({cui},2024)" },
  { header: "Profit net 2024", formula: "=FIRMA.PROFIT({cui},2024)" },
];

/**
 * The demo/load-test description: a header, `rows` rows of CUIs in column A — valid ones,
 * duplicates (every 7th row repeats an earlier CUI), invalid ones (every 23rd: a wrong
 * control digit or letters) and blanks (every 31st) — five FIRMA columns, and one spilled
 * history formula in H2. Cached results are placeholders (#N/A), as if never refreshed.
 */
export function demoSpec(opts: DemoOptions = {}): BuildSpec {
  const n = opts.rows ?? 500;
  const rand = prng(opts.seed ?? 2024);
  const columns = opts.columns ?? DEMO_COLUMNS;
  const pool: Array<number | string> = opts.cuis?.length
    ? opts.cuis
    : Array.from({ length: Math.max(8, Math.ceil(n / 2)) }, () => withControlDigit(1_000_000 + Math.floor(rand() * 40_000_000)));
  const rows: BuildCell[][] = [
    [{ value: "CUI", style: "header" }, ...columns.map((c) => ({ value: c.header, style: "header" as StyleName }))],
  ];
  const seen: Array<number | string> = [];
  for (let i = 0; i < n; i++) {
    const r = i + 2;
    let cui: BuildValue;
    if ((i + 1) % 31 === 0) cui = null;
    else if ((i + 1) % 23 === 0) {
      // letters, or a valid CUI with another last digit (the control digit is unique per base)
      const v = Number(String(pool[i % pool.length]).replace(/\D/g, ""));
      cui = i % 2 ? "RO12AB34" : Math.floor(v / 10) * 10 + (((v % 10) + 1) % 10);
    } else if ((i + 1) % 7 === 0 && seen.length) cui = seen[Math.floor(rand() * seen.length)];
    else {
      cui = pool[i % pool.length];
      if (i % 5 === 0 && typeof cui === "number") cui = `RO${cui}`;
      seen.push(cui);
    }
    const row: BuildCell[] = [cui === null ? undefined : typeof cui === "number" ? cui : { value: cui, style: "text" }];
    for (const c of columns) row.push({ formula: c.formula.replace(/\{cui\}/g, `A${r}`), form: opts.form });
    rows.push(row);
  }
  const sheets: BuildSheet[] = [{ name: "Firme", rows, columnWidths: [14, 36, 12, 16, 22, 18] }];
  if (opts.history !== false) {
    const h = opts.history ?? {
      formula: "=FIRMA.ISTORIC({cui},2020,2024)",
      cached: [
        ["An", "Cifra de afaceri", "Profit net"],
        [2020, { error: "#N/A" }, { error: "#N/A" }],
        [2021, { error: "#N/A" }, { error: "#N/A" }],
      ] as BuildValue[][],
    };
    const width = 1 + columns.length; // A..F
    const anchorCol = width + 2; // H
    const spec = {
      formula: h.formula.replace(/\{cui\}/g, "A2"),
      cached: h.cached,
      form: opts.form === "plain" ? undefined : opts.form,
    };
    // place the history anchor in row 2, column H, leaving G empty
    while (rows[1].length < anchorCol - 1) rows[1].push(undefined);
    rows[1].push(spec);
    rows[0].push(undefined, { value: "Istoric", style: "header" });
  }
  return { sheets };
}
