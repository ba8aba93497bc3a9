/**
 * The ZIP format as the package reads it (and the CLI's zip-writer.ts writes it): record
 * signatures, little-endian fields, CRC-32, and an entry as the central directory describes it.
 */
import { crc32 as zlibCrc32 } from "zlib";
import { XlsxError } from "./xlsx-error";

export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_EOCD = 0x06054b50;
export const SIG_ZIP64_LOCATOR = 0x07064b50;

/** CRC-32 as ZIP uses it (Node's zlib has it since 20.15). */
export function crc32(data: Uint8Array): number {
  return zlibCrc32(data);
}

export const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export interface Entry {
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

export function u16(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8);
}
export function u32(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
export function corrupt(detail: string): XlsxError {
  return new XlsxError("corrupt", "xlsx.damaged", {}, detail);
}
