/**
 * Reading a ZIP's layout without inflating anything: the end record, then every central-directory
 * record, each entry keeping its raw record and the span of its bytes in the file (local header,
 * compressed data, descriptor), so that an unchanged entry can be copied back byte for byte.
 * Refused with a clear error: ZIP64, multi-disk archives, an OLE file (encrypted workbook, .xls).
 */
import { XlsxError } from "./xlsx-error";
import { SIG_CENTRAL, SIG_EOCD, SIG_LOCAL, SIG_ZIP64_LOCATOR, corrupt, u16, u32, utf8Decoder, type Entry } from "./zip-format";

export interface ZipDirectory {
  /** Entries in central-directory order. */
  entries: Entry[];
  /** Offset and size of the central directory. */
  cdOffset: number;
  cdSize: number;
  /** Offset of the end-of-central-directory record. */
  eocdOffset: number;
  /** Offset of the first local header (bytes before it are copied as they are). */
  prefixEnd: number;
}

/** The layout of a ZIP file; throws `XlsxError` for anything that is not a readable ZIP. */
export function readZipDirectory(data: Uint8Array): ZipDirectory {
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

  const entries: Entry[] = [];
  const names = new Set<string>();
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
    if (names.has(name)) throw corrupt(`duplicate entry ${name}`);
    if (localOffset + 30 > cdOffset || u32(data, localOffset) !== SIG_LOCAL) throw corrupt(`local header of ${name} is missing`);
    const dataStart = localOffset + 30 + u16(data, localOffset + 26) + u16(data, localOffset + 28);
    entries.push({
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
    });
    names.add(name);
    p += recLen;
  }
  if (p !== cdOffset + cdSize) throw corrupt("central directory size does not match its records");

  // Each entry owns the bytes from its local header to the next entry (or the central directory).
  const sorted = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    e.chunkEnd = i + 1 < sorted.length ? sorted[i + 1].localOffset : cdOffset;
    if (e.dataStart + e.compressedSize > e.chunkEnd) throw corrupt(`data of ${e.name} overruns the next entry`);
  }
  const prefixEnd = sorted.length ? sorted[0].localOffset : cdOffset;
  return { entries, cdOffset, cdSize, eocdOffset: eocd, prefixEnd };
}
