/**
 * An .xlsx file as a ZIP package, read: its entries by name, each inflated (fflate) and checked
 * against its CRC only when asked for. The central directory is parsed here (zip-directory.ts), so
 * every entry keeps its raw bytes and offsets: the CLI's `WritablePackage` (src/cli/writable-package.ts)
 * extends this class to replace entries and write the package back byte for byte where unchanged.
 * An entry replaced there is read here as its new content.
 *
 * Not supported (clear error): ZIP64 archives (over 4 GiB or 65,535 entries), multi-disk
 * archives, encrypted entries, compression methods other than stored and deflate.
 */
import { inflateSync } from "fflate";
import { XlsxError } from "./xlsx-error";
import { corrupt, crc32, utf8Decoder, type Entry } from "./zip-format";
import { readZipDirectory, type ZipDirectory } from "./zip-directory";

export { XlsxError, type XlsxErrorCode } from "./xlsx-error";
export { crc32, type Entry } from "./zip-format";
export type { ZipDirectory } from "./zip-directory";

const ZIP = [0x50, 0x4b];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (b: Uint8Array, sig: readonly number[]) => sig.every((x, i) => b[i] === x);

/**
 * Whether a file is to be read as a workbook: by its extension (.xlsx, .xlsm yes; .csv, .txt no),
 * else by its first bytes (a ZIP, or an OLE file, which the reader then names: an encrypted
 * workbook or an .xls).
 */
export function isWorkbookFile(path: string, bytes: Uint8Array): boolean {
  const ext = /\.[^./\\]*$/.exec(path)?.[0].toLowerCase() ?? "";
  if (ext === ".xlsx" || ext === ".xlsm") return true;
  if (ext === ".csv" || ext === ".txt") return false;
  return startsWith(bytes, ZIP) || startsWith(bytes, OLE);
}

export class XlsxPackage {
  protected readonly entries: Entry[] = [];
  private readonly byName = new Map<string, Entry>();
  private readonly byLowerName = new Map<string, Entry>();

  protected constructor(
    /** The original file (empty for a package built from scratch). */
    protected readonly original: Uint8Array,
    /** Where the original's directory, end record and first entry are (`eocdOffset` -1: none). */
    protected readonly layout: Omit<ZipDirectory, "entries">,
  ) {}

  /** Opens a package; throws `XlsxError` for anything that is not a readable .xlsx ZIP. */
  static open(bytes: Uint8Array, opts: { requireWorkbook?: boolean } = {}): XlsxPackage {
    return XlsxPackage.fill(bytes, opts, (data, layout) => new XlsxPackage(data, layout));
  }

  /** The package a subclass makes (`make`) over `bytes`, with the entries of its directory. */
  protected static fill<P extends XlsxPackage>(
    bytes: Uint8Array,
    opts: { requireWorkbook?: boolean },
    make: (data: Uint8Array, layout: Omit<ZipDirectory, "entries">) => P,
  ): P {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const { entries, ...layout } = readZipDirectory(data);
    const pkg = make(data, layout);
    for (const e of entries) pkg.add(e);
    if (opts.requireWorkbook !== false) {
      if (!pkg.has("[Content_Types].xml")) {
        throw new XlsxError("not_xlsx", "xlsx.noContentTypes", {});
      }
    }
    return pkg;
  }

  protected add(entry: Entry): void {
    this.entries.push(entry);
    this.byName.set(entry.name, entry);
    const lower = entry.name.toLowerCase();
    if (!this.byLowerName.has(lower)) this.byLowerName.set(lower, entry);
  }

  /** Entry names in central-directory order. */
  get names(): string[] {
    return this.entries.map((e) => e.name);
  }

  protected find(name: string): Entry | undefined {
    const n = name.startsWith("/") ? name.slice(1) : name;
    return this.byName.get(n) ?? this.byLowerName.get(n.toLowerCase());
  }

  /** True when the part exists (OPC part names are case-insensitive; a leading "/" is allowed). */
  has(name: string): boolean {
    return this.find(name) !== undefined;
  }

  /** The exact entry name for a part name, or undefined. */
  entryName(name: string): string | undefined {
    return this.find(name)?.name;
  }

  /** Uncompressed content of an entry (CRC checked). */
  read(name: string): Uint8Array {
    const e = this.find(name);
    if (!e) throw new XlsxError("not_xlsx", "xlsx.missingPart", { part: name });
    if (e.replacement) return e.replacement;
    return this.readOriginal(e);
  }

  protected readOriginal(e: Entry): Uint8Array {
    if (e.cache) return e.cache;
    if (e.flags & 1) {
      throw new XlsxError("encrypted_or_xls", "xlsx.encryptedPart", {}, e.name);
    }
    const raw = this.original.subarray(e.dataStart, e.dataStart + e.compressedSize);
    let out: Uint8Array;
    if (e.method === 0) {
      out = raw;
    } else if (e.method === 8) {
      try {
        out = inflateSync(raw, { out: new Uint8Array(e.uncompressedSize) });
      } catch (err) {
        throw corrupt(`${e.name}: ${(err as Error).message}`);
      }
    } else {
      throw new XlsxError("unsupported", "xlsx.compression", { method: String(e.method) }, e.name);
    }
    if (out.length !== e.uncompressedSize || crc32(out) !== e.crc) throw corrupt(`${e.name}: checksum mismatch`);
    e.cache = out;
    return out;
  }

  /** An entry as UTF-8 text (a byte-order mark, if any, is kept as U+FEFF so it round-trips). */
  readText(name: string): string {
    const b = this.read(name);
    if (b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff))) {
      throw new XlsxError("unsupported", "xlsx.utf16", {}, name);
    }
    return utf8Decoder.decode(b);
  }
}
