/**
 * The workbook's shared string table: the texts cells of type `s` point to by index.
 */
import { XlsxPackage } from "./xlsx-package";
import { childElements, stringItemText } from "./xml";
import { badPart, relatedPart, rootElement, type Relationship } from "./workbook-parts";

const REL_SHARED_STRINGS = /\/sharedStrings$/;

/** The shared string table (empty when the workbook has none). */
export function readSharedStrings(pkg: XlsxPackage, workbookRels: readonly Relationship[]): string[] {
  const part = relatedPart(pkg, workbookRels, REL_SHARED_STRINGS);
  const out: string[] = [];
  if (part === null) return out;
  const xml = pkg.readText(part);
  try {
    const root = rootElement(xml);
    for (const si of childElements(xml, root)) {
      if (si.tag.local !== "si") continue;
      out.push(stringItemText(xml, si.contentStart, si.contentEnd));
    }
  } catch (e) {
    throw badPart(part, e);
  }
  return out;
}
