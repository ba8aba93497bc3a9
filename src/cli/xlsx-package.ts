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
 * keeps even its compressed bytes.
 *
 * Not supported (clear error): ZIP64 archives (over 4 GiB or 65,535 entries), multi-disk
 * archives, encrypted entries, compression methods other than stored and deflate.
 */
import { crc32 as zlibCrc32 } from "zlib";
import { deflateSync, inflateSync } from "fflate";
import { t, type MessageKey, type Params } from "../shared/messages";

export type XlsxErrorCode =
  /** Not a ZIP file at all (empty, text, random bytes). */
  | "not_zip"
  /** A ZIP file whose structure or data is damaged. */
  | "corrupt"
  /** An OLE compound file: a password-protected workbook or the old .xls format. */
  | "encrypted_or_xls"
  /** A valid ZIP that is not an Excel workbook (.docx, a plain zip, .xlsb). */
  | "not_xlsx"
  /** A valid workbook using a ZIP feature this reader does not handle. */
  | "unsupported";

/** The error for any input that cannot be read as an .xlsx. Message: Romanian, then English. */
export class XlsxError extends Error {
  override readonly name = "XlsxError";
  /** The message in each language, from the catalogs (`xlsx.*`). */
  readonly ro: string;
  readonly en: string;
  constructor(
    readonly code: XlsxErrorCode,
    key: MessageKey,
    params: Params = {},
    readonly detail?: string,
  ) {
    const ro = t("ro", key, params);
    const en = t("en", key, params);
    super(`${ro} / ${en}${detail ? ` (${detail})` : ""}`);
    this.ro = ro;
    this.en = en;
  }
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;

/** CRC-32 as ZIP uses it (Node's zlib has it since 20.15). */
export function crc32(data: Uint8Array): number {
  return zlibCrc32(data);
}

const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const utf8Encoder = new TextEncoder();

interface Entry {
  name: string;
  /** Raw central-directory record (signature to end of comment). Absent for an added entry. */
  cdRecord?: Uint8Array;
  /** Offset of the local header in the original file. */
  localOffset: number;
  /** End (exclusive) of this entry's bytes in the original file: the next entry or the central directory. */
  chunkEnd: number;
  dataStart: number;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  modTime: number;
  modDate: number;
  /** Replacement content (uncompressed) when changed or added. */
  replacement?: Uint8Array;
  /** Cached uncompressed original content. */
  cache?: Uint8Array;
}

function u16(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
function put16(b: Uint8Array, o: number, v: number): void {
  b[o] = v & 0xff;
  b[o + 1] = (v >>> 8) & 0xff;
}
function put32(b: Uint8Array, o: number, v: number): void {
  b[o] = v & 0xff;
  b[o + 1] = (v >>> 8) & 0xff;
  b[o + 2] = (v >>> 16) & 0xff;
  b[o + 3] = (v >>> 24) & 0xff;
}

function corrupt(detail: string): XlsxError {
  return new XlsxError("corrupt", "xlsx.damaged", {}, detail);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** DOS date 1980-01-01, time 00:00, as Excel writes for every entry. */
const DOS_DATE_1980 = 0x21;

export class XlsxPackage {
  private readonly entries: Entry[] = [];
  private readonly byName = new Map<string, Entry>();
  private readonly byLowerName = new Map<string, Entry>();
  /** Offset of the first local header (bytes before it are copied as they are). */
  private prefixEnd = 0;

  private constructor(
    /** The original file (empty for a package built from scratch). */
    private readonly original: Uint8Array,
    /** Offset and size of the central directory in the original. */
    private readonly cdOffset: number,
    private readonly cdSize: number,
    /** Offset of the end-of-central-directory record. */
    private readonly eocdOffset: number,
  ) {}

  /** Opens a package; throws `XlsxError` for anything that is not a readable .xlsx ZIP. */
  static open(bytes: Uint8Array, opts: { requireWorkbook?: boolean } = {}): XlsxPackage {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    if (data.length >= 8 && data[0] === 0xd0 && data[1] === 0xcf && data[2] === 0x11 && data[3] === 0xe0) {
      throw new XlsxError("encrypted_or_xls", "xlsx.encryptedOrXls", {});
    }
    if (data.length < 22 || u32(data, 0) !== SIG_LOCAL) {
      // An empty archive starts with the end record; anything else that is not PK\3\4 is not a zip.
      if (!(data.length >= 22 && u32(data, 0) === SIG_EOCD)) {
        throw new XlsxError("not_zip", "xlsx.notZip", {});
      }
    }
    // Find the end-of-central-directory record (it may be followed by a comment of up to 65535 bytes).
    let eocd = -1;
    const minPos = Math.max(0, data.length - 22 - 0xffff);
    for (let p = data.length - 22; p >= minPos; p--) {
      if (u32(data, p) === SIG_EOCD && p + 22 + u16(data, p + 20) === data.length) {
        eocd = p;
        break;
      }
    }
    if (eocd < 0) throw corrupt("no end-of-central-directory record (truncated file?)");
    const disk = u16(data, eocd + 4);
    const cdDisk = u16(data, eocd + 6);
    const entriesOnDisk = u16(data, eocd + 8);
    const totalEntries = u16(data, eocd + 10);
    const cdSize = u32(data, eocd + 12);
    const cdOffset = u32(data, eocd + 16);
    if (
      (eocd >= 20 && u32(data, eocd - 20) === SIG_ZIP64_LOCATOR) ||
      totalEntries === 0xffff ||
      cdSize === 0xffffffff ||
      cdOffset === 0xffffffff
    ) {
      throw new XlsxError("unsupported", "xlsx.zip64", {});
    }
    if (disk !== 0 || cdDisk !== 0 || entriesOnDisk !== totalEntries) {
      throw new XlsxError("unsupported", "xlsx.multiVolume", {});
    }
    if (cdOffset + cdSize > eocd) throw corrupt("central directory outside the file");

    const pkg = new XlsxPackage(data, cdOffset, cdSize, eocd);
    let p = cdOffset;
    for (let i = 0; i < totalEntries; i++) {
      if (p + 46 > cdOffset + cdSize || u32(data, p) !== SIG_CENTRAL) throw corrupt(`central directory record ${i} is damaged`);
      const flags = u16(data, p + 8);
      const method = u16(data, p + 10);
      const modTime = u16(data, p + 12);
      const modDate = u16(data, p + 14);
      const crc = u32(data, p + 16);
      const compressedSize = u32(data, p + 20);
      const uncompressedSize = u32(data, p + 24);
      const nameLen = u16(data, p + 28);
      const extraLen = u16(data, p + 30);
      const commentLen = u16(data, p + 32);
      const diskStart = u16(data, p + 34);
      const localOffset = u32(data, p + 42);
      const recLen = 46 + nameLen + extraLen + commentLen;
      if (p + recLen > cdOffset + cdSize) throw corrupt(`central directory record ${i} overruns the directory`);
      if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localOffset === 0xffffffff || diskStart === 0xffff) {
        throw new XlsxError("unsupported", "xlsx.zip64", {});
      }
      const name = utf8Decoder.decode(data.subarray(p + 46, p + 46 + nameLen));
      if (pkg.byName.has(name)) throw corrupt(`duplicate entry ${name}`);
      if (localOffset + 30 > cdOffset || u32(data, localOffset) !== SIG_LOCAL) throw corrupt(`local header of ${name} is missing`);
      const dataStart = localOffset + 30 + u16(data, localOffset + 26) + u16(data, localOffset + 28);
      const entry: Entry = {
        name,
        cdRecord: data.subarray(p, p + recLen),
        localOffset,
        chunkEnd: 0,
        dataStart,
        method,
        flags,
        crc,
        compressedSize,
        uncompressedSize,
        modTime,
        modDate,
      };
      pkg.entries.push(entry);
      pkg.byName.set(name, entry);
      if (!pkg.byLowerName.has(name.toLowerCase())) pkg.byLowerName.set(name.toLowerCase(), entry);
      p += recLen;
    }
    if (p !== cdOffset + cdSize) throw corrupt("central directory size does not match its records");

    // Each entry owns the bytes from its local header to the next entry (or the central directory).
    const sorted = [...pkg.entries].sort((a, b) => a.localOffset - b.localOffset);
    for (let i = 0; i < sorted.length; i++) {
      const e = sorted[i];
      e.chunkEnd = i + 1 < sorted.length ? sorted[i + 1].localOffset : cdOffset;
      if (e.dataStart + e.compressedSize > e.chunkEnd) throw corrupt(`data of ${e.name} overruns the next entry`);
    }
    pkg.prefixEnd = sorted.length ? sorted[0].localOffset : cdOffset;

    if (opts.requireWorkbook !== false) {
      if (!pkg.has("[Content_Types].xml")) {
        throw new XlsxError("not_xlsx", "xlsx.noContentTypes", {});
      }
    }
    return pkg;
  }

  /** A new package from (name, content) pairs in that order, entries dated 1980-01-01 like Excel's. */
  static create(entries: Iterable<readonly [string, Uint8Array | string]>): XlsxPackage {
    const pkg = new XlsxPackage(new Uint8Array(0), 0, 0, -1);
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
    this.entries.push(entry);
    this.byName.set(n, entry);
    if (!this.byLowerName.has(n.toLowerCase())) this.byLowerName.set(n.toLowerCase(), entry);
  }

  /** Names of entries whose content differs from the original (or that were added). */
  changedNames(): string[] {
    return this.entries.filter((e) => e.replacement !== undefined).map((e) => e.name);
  }

  /** The package as a ZIP file; see the module comment for what is kept byte for byte. */
  toBytes(): Uint8Array {
    const chunks: Uint8Array[] = [];
    let pos = 0;
    const push = (b: Uint8Array) => {
      chunks.push(b);
      pos += b.length;
    };
    push(this.original.subarray(0, this.prefixEnd));
    const newOffset = new Map<Entry, number>();
    const encoded = new Map<Entry, { data: Uint8Array; crc: number; method: number; flags: number }>();
    const localOrder = [...this.entries].sort((a, b) => {
      // original entries in file order, added ones after them in insertion order
      if (a.cdRecord && b.cdRecord) return a.localOffset - b.localOffset;
      if (a.cdRecord) return -1;
      if (b.cdRecord) return 1;
      return this.entries.indexOf(a) - this.entries.indexOf(b);
    });
    for (const e of localOrder) {
      newOffset.set(e, pos);
      if (e.replacement === undefined) {
        push(this.original.subarray(e.localOffset, e.chunkEnd));
        continue;
      }
      const content = e.replacement;
      const method = e.method === 0 ? 0 : 8;
      const data = method === 0 ? content : deflateSync(content, { level: 6 });
      const crc = crc32(content);
      // keep the UTF-8-name flag only; no data descriptor, no encryption, normal compression
      const flags = e.flags & 0x0800;
      encoded.set(e, { data, crc, method, flags });
      const nameBytes = utf8Encoder.encode(e.name);
      const h = new Uint8Array(30 + nameBytes.length);
      put32(h, 0, SIG_LOCAL);
      put16(h, 4, 20);
      put16(h, 6, flags);
      put16(h, 8, method);
      put16(h, 10, e.modTime);
      put16(h, 12, e.modDate);
      put32(h, 14, crc);
      put32(h, 18, data.length);
      put32(h, 22, content.length);
      put16(h, 26, nameBytes.length);
      put16(h, 28, 0);
      h.set(nameBytes, 30);
      push(h);
      push(data);
    }
    const cdStart = pos;
    for (const e of this.entries) {
      const off = newOffset.get(e)!;
      if (e.replacement === undefined && e.cdRecord) {
        const rec = e.cdRecord.slice();
        put32(rec, 42, off);
        push(rec);
        continue;
      }
      const enc = encoded.get(e)!;
      const nameBytes = utf8Encoder.encode(e.name);
      let extra: Uint8Array = new Uint8Array(0);
      let comment: Uint8Array = new Uint8Array(0);
      let versionMadeBy = 0x14;
      let internalAttr = 0;
      let externalAttr = 0;
      if (e.cdRecord) {
        const r = e.cdRecord;
        const nl = u16(r, 28);
        const el = u16(r, 30);
        const cl = u16(r, 32);
        versionMadeBy = u16(r, 4);
        internalAttr = u16(r, 36);
        externalAttr = u32(r, 38);
        extra = r.subarray(46 + nl, 46 + nl + el);
        comment = r.subarray(46 + nl + el, 46 + nl + el + cl);
      }
      const rec = new Uint8Array(46 + nameBytes.length + extra.length + comment.length);
      put32(rec, 0, SIG_CENTRAL);
      put16(rec, 4, versionMadeBy);
      put16(rec, 6, 20);
      put16(rec, 8, enc.flags);
      put16(rec, 10, enc.method);
      put16(rec, 12, e.modTime);
      put16(rec, 14, e.modDate);
      put32(rec, 16, enc.crc);
      put32(rec, 20, enc.data.length);
      put32(rec, 24, e.replacement!.length);
      put16(rec, 28, nameBytes.length);
      put16(rec, 30, extra.length);
      put16(rec, 32, comment.length);
      put16(rec, 34, 0);
      put16(rec, 36, internalAttr);
      put32(rec, 38, externalAttr);
      put32(rec, 42, off);
      rec.set(nameBytes, 46);
      rec.set(extra, 46 + nameBytes.length);
      rec.set(comment, 46 + nameBytes.length + extra.length);
      push(rec);
    }
    const cdSize = pos - cdStart;
    if (this.eocdOffset >= 0) {
      // bytes between the directory and the end record (normally none) are kept
      push(this.original.subarray(this.cdOffset + this.cdSize, this.eocdOffset));
      const end = this.original.slice(this.eocdOffset);
      put16(end, 8, this.entries.length);
      put16(end, 10, this.entries.length);
      put32(end, 12, cdSize);
      put32(end, 16, cdStart);
      push(end);
    } else {
      const end = new Uint8Array(22);
      put32(end, 0, SIG_EOCD);
      put16(end, 8, this.entries.length);
      put16(end, 10, this.entries.length);
      put32(end, 12, cdSize);
      put32(end, 16, cdStart);
      push(end);
    }
    if (pos > 0xffffffff) {
      throw new XlsxError("unsupported", "xlsx.tooLarge", {});
    }
    const out = new Uint8Array(pos);
    let o = 0;
    for (const c of chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}
