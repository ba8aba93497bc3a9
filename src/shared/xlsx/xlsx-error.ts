/**
 * The error for any input that cannot be read as an .xlsx: its kind (`code`, what the CLI's exit
 * and report rest on) and its message in both languages from the catalogs (`xlsx.*`).
 */
import { t, type MessageKey, type Params } from "../messages/node";

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
