/**
 * Which cells are dynamic arrays: the sheet metadata part's XLDAPR records. A cell's `cm` is a
 * 1-based index into `cellMetadata`; a block there pointing at an XLDAPR future-metadata block
 * with `fDynamic` marks a dynamic-array formula (what Excel writes for spilling formulas and
 * custom functions), as opposed to a legacy Ctrl+Shift+Enter array.
 */
import { XlsxPackage } from "./xlsx-package";
import { attributes, childElements, scanTags } from "./xml";
import { badPart, relatedPart, rootElement, type Relationship } from "./workbook-parts";

const REL_SHEET_METADATA = /\/sheetMetadata$/;

/** The `cm` indices (1-based) that denote dynamic-array cells; null when the workbook has no metadata part. */
export function readDynamicArrayCellMetadata(pkg: XlsxPackage, workbookRels: readonly Relationship[]): Set<number> | null {
  const part = relatedPart(pkg, workbookRels, REL_SHEET_METADATA);
  if (part === null) return null;
  const xml = pkg.readText(part);
  const set = new Set<number>();
  try {
    const root = rootElement(xml);
    let xldaprType = -1;
    const dynamicBk = new Set<number>();
    const cellBks: Array<Array<{ t: number; v: number }>> = [];
    for (const child of childElements(xml, root)) {
      if (child.tag.local === "metadataTypes") {
        let i = 0;
        for (const mt of childElements(xml, child)) {
          if (mt.tag.local !== "metadataType") continue;
          i++;
          if (attributes(xml.slice(mt.tag.start, mt.tag.end)).get("name") === "XLDAPR") xldaprType = i;
        }
      } else if (child.tag.local === "futureMetadata" && attributes(xml.slice(child.tag.start, child.tag.end)).get("name") === "XLDAPR") {
        let i = 0;
        for (const bk of childElements(xml, child)) {
          if (bk.tag.local !== "bk") continue;
          for (const t of scanTags(xml, bk.contentStart, bk.contentEnd)) {
            if (t.local === "dynamicArrayProperties" && t.kind !== "close") {
              const f = attributes(xml.slice(t.start, t.end)).get("fDynamic");
              if (f === "1" || f === "true") dynamicBk.add(i);
            }
          }
          i++;
        }
      } else if (child.tag.local === "cellMetadata") {
        for (const bk of childElements(xml, child)) {
          if (bk.tag.local !== "bk") continue;
          const rcs: Array<{ t: number; v: number }> = [];
          for (const t of scanTags(xml, bk.contentStart, bk.contentEnd)) {
            if (t.local !== "rc" || t.kind === "close") continue;
            const a = attributes(xml.slice(t.start, t.end));
            rcs.push({ t: Number(a.get("t")), v: Number(a.get("v")) });
          }
          cellBks.push(rcs);
        }
      }
    }
    cellBks.forEach((rcs, i) => {
      if (rcs.some((rc) => rc.t === xldaprType && dynamicBk.has(rc.v))) set.add(i + 1);
    });
  } catch (e) {
    throw badPart(part, e);
  }
  return set;
}
