/**
 * The .xlsx package the CLI writes: the shared reader (src/shared/xlsx/xlsx-package.ts) with entries
 * replaced or added, and the package written back (zip-writer.ts): an entry that was not changed is
 * copied as it was, byte for byte (local header + compressed data + descriptor); only changed
 * entries are deflated again and get a new local header and central-directory record. The entry
 * order, the bytes before the first entry and the end record (with its comment) are kept. So a
 * package written back with no change is the very same file, and with changes every untouched entry
 * keeps even its compressed bytes.
 */
import { XlsxPackage, type Entry } from "../shared/xlsx/xlsx-package";
import { Workbook } from "../shared/xlsx/workbook";
import { DOS_DATE_1980, writeZip } from "./zip-writer";

const utf8Encoder = new TextEncoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class WritablePackage extends XlsxPackage {
  /** Opens a package; throws `XlsxError` for anything that is not a readable .xlsx ZIP. */
  static override open(bytes: Uint8Array, opts: { requireWorkbook?: boolean } = {}): WritablePackage {
    return XlsxPackage.fill(bytes, opts, (data, layout) => new WritablePackage(data, layout));
  }

  /** A new package from (name, content) pairs in that order, entries dated 1980-01-01 like Excel's. */
  static create(entries: Iterable<readonly [string, Uint8Array | string]>): WritablePackage {
    const pkg = new WritablePackage(new Uint8Array(0), { cdOffset: 0, cdSize: 0, eocdOffset: -1, prefixEnd: 0 });
    for (const [name, content] of entries) pkg.write(name, content);
    return pkg;
  }

  /**
   * Replaces (or adds, at the end) an entry's content. Writing content equal to the original
   * leaves the entry unchanged, so it keeps its original compressed bytes.
   */
  write(name: string, content: Uint8Array | string): void {
    const bytes = typeof content === "string" ? utf8Encoder.encode(content) : content;
    const e = this.find(name);
    if (e) {
      if (e.cdRecord && sameBytes(this.readOriginal(e), bytes)) {
        e.replacement = undefined;
        return;
      }
      e.replacement = bytes;
      return;
    }
    const n = name.startsWith("/") ? name.slice(1) : name;
    const entry: Entry = {
      name: n,
      localOffset: -1,
      chunkEnd: -1,
      dataStart: -1,
      method: 8,
      flags: /[^\x20-\x7e]/.test(n) ? 0x0800 : 0,
      crc: 0,
      compressedSize: 0,
      uncompressedSize: 0,
      modTime: 0,
      modDate: DOS_DATE_1980,
      replacement: bytes,
    };
    this.add(entry);
  }

  /** Names of entries whose content differs from the original (or that were added). */
  changedNames(): string[] {
    return this.entries.filter((e) => e.replacement !== undefined).map((e) => e.name);
  }

  /** The package as a ZIP file; see the module comment for what is kept byte for byte. */
  toBytes(): Uint8Array {
    return writeZip(this.original, this.layout, this.entries);
  }
}

/** A workbook the CLI reads and then writes into (`wb.pkg.write`, `wb.pkg.toBytes()`). */
export type WritableWorkbook = Workbook<WritablePackage>;

/** Opens a workbook to write into; throws `XlsxError` when the bytes are not an .xlsx. */
export function openWritable(bytes: Uint8Array): WritableWorkbook {
  return Workbook.over(WritablePackage.open(bytes));
}
