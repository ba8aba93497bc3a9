/**
 * An .xlsx file as a ZIP package that can be rewritten surgically.
 *
 * Reading: the central directory is parsed here (fflate only inflates), so every entry keeps
 * its raw bytes: local header, compressed data, data descriptor, and its central-directory
 * record. Writing (`toBytes`): an entry that was not changed is copied as it was, byte for
 * byte (local header + compressed data + descriptor); only changed entries are deflated
 * again and get a new local header and central-directory record. The entry order, the bytes
 * before the first entry and the end record (with its comment) are kept. So a package
 * written back with no change is the very same file, and with changes every untouched entry
 * keeps even its compressed bytes. The ZIP's layout is read by zip-directory.ts and written by
 * zip-writer.ts; here, the package's entries by name, read, replaced, added.
 *
 * Not supported (clear error): ZIP64 archives (over 4 GiB or 65,535 entries), multi-disk
 * archives, encrypted entries, compression methods other than stored and deflate.
 */
import { inflateSync } from "fflate";
import { XlsxError } from "./xlsx-error";
import { DOS_DATE_1980, corrupt, crc32, utf8Decoder, utf8Encoder, type Entry } from "./zip-format";
import { readZipDirectory, type ZipDirectory } from "./zip-directory";
import { writeZip } from "./zip-writer";

export { XlsxError, type XlsxErrorCode } from "./xlsx-error";
export { crc32 } from "./zip-format";

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class XlsxPackage {
  private readonly entries: Entry[] = [];
  private readonly byName = new Map<string, Entry>();
  private readonly byLowerName = new Map<string, Entry>();

  private constructor(
    /** The original file (empty for a package built from scratch). */
    private readonly original: Uint8Array,
    /** Where the original's directory, end record and first entry are (`eocdOffset` -1: none). */
    private readonly layout: Omit<ZipDirectory, "entries">,
  ) {}

  /** Opens a package; throws `XlsxError` for anything that is not a readable .xlsx ZIP. */
  static open(bytes: Uint8Array, opts: { requireWorkbook?: boolean } = {}): XlsxPackage {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const { entries, ...layout } = readZipDirectory(data);
    const pkg = new XlsxPackage(data, layout);
    for (const e of entries) pkg.add(e);
    if (opts.requireWorkbook !== false) {
      if (!pkg.has("[Content_Types].xml")) {
        throw new XlsxError("not_xlsx", "xlsx.noContentTypes", {});
      }
    }
    return pkg;
  }

  private add(entry: Entry): void {
    this.entries.push(entry);
    this.byName.set(entry.name, entry);
    const lower = entry.name.toLowerCase();
    if (!this.byLowerName.has(lower)) this.byLowerName.set(lower, entry);
  }

  /** A new package from (name, content) pairs in that order, entries dated 1980-01-01 like Excel's. */
  static create(entries: Iterable<readonly [string, Uint8Array | string]>): XlsxPackage {
    const pkg = new XlsxPackage(new Uint8Array(0), { cdOffset: 0, cdSize: 0, eocdOffset: -1, prefixEnd: 0 });
    for (const [name, content] of entries) pkg.write(name, content);
    return pkg;
  }

  /** Entry names in central-directory order. */
  get names(): string[] {
    return this.entries.map((e) => e.name);
  }

  private find(name: string): Entry | undefined {
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

  private readOriginal(e: Entry): Uint8Array {
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
