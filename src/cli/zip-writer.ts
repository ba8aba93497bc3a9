/**
 * Writing a package back as a ZIP file: an entry that was not changed is copied as it was, byte
 * for byte (local header + compressed data + descriptor, central-directory record with only its
 * offset updated); a changed or added entry is deflated again and gets a new local header and
 * record. The entry order, the bytes before the first entry and the end record (with its comment)
 * are kept.
 */
import { deflateSync } from "fflate";
import { XlsxError } from "../shared/xlsx/xlsx-error";
import { SIG_CENTRAL, SIG_EOCD, SIG_LOCAL, crc32, u16, u32, type Entry } from "../shared/xlsx/zip-format";
import type { ZipDirectory } from "../shared/xlsx/zip-directory";

/** DOS date 1980-01-01, time 00:00, as Excel writes for every entry. */
export const DOS_DATE_1980 = 0x21;

const utf8Encoder = new TextEncoder();

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

/** The ZIP file of `entries` (in central-directory order) over the `original` file and its layout (a built package: empty, `eocdOffset` -1). */
export function writeZip(original: Uint8Array, layout: Omit<ZipDirectory, "entries">, entries: readonly Entry[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  let pos = 0;
  const push = (b: Uint8Array) => {
    chunks.push(b);
    pos += b.length;
  };
  push(original.subarray(0, layout.prefixEnd));
  const newOffset = new Map<Entry, number>();
  const encoded = new Map<Entry, { data: Uint8Array; crc: number; method: number; flags: number }>();
  const localOrder = [...entries].sort((a, b) => {
    // original entries in file order, added ones after them in insertion order
    if (a.cdRecord && b.cdRecord) return a.localOffset - b.localOffset;
    if (a.cdRecord) return -1;
    if (b.cdRecord) return 1;
    return entries.indexOf(a) - entries.indexOf(b);
  });
  for (const e of localOrder) {
    newOffset.set(e, pos);
    if (e.replacement === undefined) {
      push(original.subarray(e.localOffset, e.chunkEnd));
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
  for (const e of entries) {
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
  if (layout.eocdOffset >= 0) {
    // bytes between the directory and the end record (normally none) are kept
    push(original.subarray(layout.cdOffset + layout.cdSize, layout.eocdOffset));
    const end = original.slice(layout.eocdOffset);
    put16(end, 8, entries.length);
    put16(end, 10, entries.length);
    put32(end, 12, cdSize);
    put32(end, 16, cdStart);
    push(end);
  } else {
    const end = new Uint8Array(22);
    put32(end, 0, SIG_EOCD);
    put16(end, 8, entries.length);
    put16(end, 10, entries.length);
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
