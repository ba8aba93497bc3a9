/**
 * The error for any input that cannot be read as an .xlsx: its kind (`code`, what the CLI's exit
 * and report rest on) and the catalog key of what to tell the user (`xlsx.*`, with its params), which
 * the surface says in the user's language; its own message is short, for developers: the code, the key,
 * its params and the detail.
 */
import type { Params } from "../messages/index";
import type { NodeOnlyKey } from "../messages/node-ro";

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

/** The catalog keys an `XlsxError` names. */
export type XlsxMessageKey = Extract<NodeOnlyKey, `xlsx.${string}`>;

/** The error for any input that cannot be read as an .xlsx. */
export class XlsxError extends Error {
  override readonly name = "XlsxError";
  constructor(
    readonly code: XlsxErrorCode,
    /** What to tell the user: `t(lang, key, params)` from src/shared/messages/node.ts. */
    readonly key: XlsxMessageKey,
    readonly params: Params = {},
    /** Where in the file (a part, a ZIP detail), shown after the message. */
    readonly detail?: string,
  ) {
    const named = Object.entries(params).map(([k, v]) => ` ${k}=${v}`);
    super(`${code}: ${key}${named.join("")}${detail ? ` (${detail})` : ""}`);
  }
}
