import { Zip, ZipDeflate, zipSync, strToU8 } from "fflate";
import { XlsxError, XlsxPackage, crc32 } from "../../src/shared/xlsx/xlsx-package";
import { WritablePackage } from "../../src/cli/writable-package";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { t } from "../../src/shared/messages/node";
import { fixtureBytes, rawEntries, sameBytes, unzipBytes } from "./helpers";

describe("XlsxPackage: the real Excel-saved fixture", () => {
  test("opened and written back with no change → the very same bytes", () => {
    const original = fixtureBytes();
    const pkg = WritablePackage.open(original);
    // read every entry, as a refresh would, then write
    for (const n of pkg.names) pkg.read(n);
    const out = pkg.toBytes();
    expect(out.length).toBe(original.length);
    expect(sameBytes(out, original)).toBe(true);
  });

  test("keeps the entries and their order", () => {
    const pkg = WritablePackage.open(fixtureBytes());
    expect(pkg.names).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/workbook.xml",
      "xl/_rels/workbook.xml.rels",
      "xl/worksheets/sheet1.xml",
      "xl/worksheets/sheet2.xml",
      "xl/worksheets/sheet3.xml",
      "xl/theme/theme1.xml",
      "xl/styles.xml",
      "xl/webextensions/taskpanes.xml",
      "xl/webextensions/webextension1.xml",
      "xl/webextensions/_rels/taskpanes.xml.rels",
      "xl/metadata.xml",
      "xl/calcChain.xml",
      "docProps/core.xml",
      "docProps/app.xml",
    ]);
  });

  test("content read equals an independent reader's (fflate unzipSync)", () => {
    const bytes = fixtureBytes();
    const pkg = WritablePackage.open(bytes);
    const ref = unzipBytes(bytes);
    for (const n of pkg.names) expect(sameBytes(pkg.read(n), ref.get(n)!)).toBe(true);
  });

  test("writing back identical content changes nothing", () => {
    const bytes = fixtureBytes();
    const pkg = WritablePackage.open(bytes);
    pkg.write("xl/worksheets/sheet3.xml", pkg.readText("xl/worksheets/sheet3.xml"));
    expect(pkg.changedNames()).toEqual([]);
    expect(sameBytes(pkg.toBytes(), bytes)).toBe(true);
  });

  test("one changed entry: only it is re-encoded; every other entry keeps its compressed bytes", () => {
    const bytes = fixtureBytes();
    const pkg = WritablePackage.open(bytes);
    const xml = pkg.readText("xl/worksheets/sheet3.xml").replace("<v>3</v>", "<v>42</v>");
    pkg.write("xl/worksheets/sheet3.xml", xml);
    expect(pkg.changedNames()).toEqual(["xl/worksheets/sheet3.xml"]);
    const out = pkg.toBytes();
    const before = rawEntries(bytes);
    const after = rawEntries(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, raw] of before) {
      if (name === "xl/worksheets/sheet3.xml") continue;
      expect(sameBytes(after.get(name)!, raw)).toBe(true);
    }
    // and an independent reader agrees on every entry's content
    const ref = unzipBytes(bytes);
    const got = unzipBytes(out);
    for (const [name, data] of ref) {
      if (name === "xl/worksheets/sheet3.xml") expect(new TextDecoder().decode(got.get(name)!)).toBe(xml);
      else expect(sameBytes(got.get(name)!, data)).toBe(true);
    }
    // reopening works and sees the change
    expect(WritablePackage.open(out).readText("xl/worksheets/sheet3.xml")).toBe(xml);
  });

  test("a package made from scratch is readable by fflate and reopens", () => {
    const pkg = WritablePackage.create([
      ["[Content_Types].xml", "<Types/>"],
      ["a/ș.xml", "<x>ăîșț</x>"],
    ]);
    const bytes = pkg.toBytes();
    const ref = unzipBytes(bytes);
    expect(new TextDecoder().decode(ref.get("a/ș.xml")!)).toBe("<x>ăîșț</x>");
    const again = WritablePackage.open(bytes);
    expect(again.names).toEqual(["[Content_Types].xml", "a/ș.xml"]);
    expect(sameBytes(again.toBytes(), bytes)).toBe(true);
  });

  test("entries with data descriptors (streamed zips) round-trip and can be changed", () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, data) => {
      if (err) throw err;
      chunks.push(data);
    });
    for (const [name, text] of [
      ["[Content_Types].xml", "<Types/>"],
      ["xl/a.xml", "<a>1</a>"],
      ["xl/b.xml", "<b>2</b>"],
    ]) {
      const f = new ZipDeflate(name, { level: 6 });
      zip.add(f);
      f.push(strToU8(text), true);
    }
    zip.end();
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let o = 0;
    for (const c of chunks) {
      bytes.set(c, o);
      o += c.length;
    }
    expect(bytes[6] & 8).toBe(8); // the first local header announces a data descriptor
    const pkg = WritablePackage.open(bytes);
    expect(sameBytes(pkg.toBytes(), bytes)).toBe(true);
    pkg.write("xl/a.xml", "<a>changed</a>");
    const out = pkg.toBytes();
    const ref = unzipBytes(out);
    expect(new TextDecoder().decode(ref.get("xl/a.xml")!)).toBe("<a>changed</a>");
    expect(new TextDecoder().decode(ref.get("xl/b.xml")!)).toBe("<b>2</b>");
  });

  test("part names are case-insensitive, a leading slash is accepted", () => {
    const pkg = WritablePackage.open(fixtureBytes());
    expect(pkg.has("/XL/Workbook.xml")).toBe(true);
    expect(pkg.entryName("/XL/Workbook.xml")).toBe("xl/workbook.xml");
  });

  test("crc32 matches the zip's", () => {
    expect(crc32(strToU8("123456789"))).toBe(0xcbf43926);
  });
});

describe("XlsxPackage: inputs that are not a readable .xlsx", () => {
  function expectXlsxError(fn: () => unknown, code: string): XlsxError {
    let caught: unknown;
    try {
      fn();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(XlsxError);
    const e = caught as XlsxError;
    expect(e.code).toBe(code);
    // what the user reads, from the catalogs, in either language
    expect(t("ro", e.key, e.params)).toMatch(/[ăâîșțĂÂÎȘȚ]|Fișier|Registr/);
    expect(t("en", e.key, e.params)).toMatch(/^[\x20-\x7e]+$/);
    return e;
  }

  test("empty file", () => {
    expectXlsxError(() => XlsxPackage.open(new Uint8Array(0)), "not_zip");
  });

  test("text file", () => {
    const e = expectXlsxError(() => XlsxPackage.open(strToU8("CUI,Denumire\n14399840,x\n")), "not_zip");
    expect(t("en", e.key, e.params)).toContain("not an Excel .xlsx workbook");
  });

  test("truncated workbook", () => {
    const b = fixtureBytes();
    expectXlsxError(() => XlsxPackage.open(b.subarray(0, b.length - 100)), "corrupt");
  });

  test("damaged compressed data → error when the part is read, not garbage", () => {
    const b = fixtureBytes().slice();
    // flip bytes inside xl/workbook.xml's compressed data (local header at 1825, name 15, no extra)
    for (let i = 1825 + 30 + 15 + 20; i < 1825 + 30 + 15 + 60; i++) b[i] ^= 0x5a;
    const pkg = XlsxPackage.open(b);
    expectXlsxError(() => pkg.read("xl/workbook.xml"), "corrupt");
    expectXlsxError(() => Workbook.open(b), "corrupt");
  });

  test("damaged central directory", () => {
    const b = fixtureBytes().slice();
    b[11444] = 0; // first central directory signature
    expectXlsxError(() => XlsxPackage.open(b), "corrupt");
  });

  test("password-protected workbook or legacy .xls (OLE compound file)", () => {
    const ole = new Uint8Array(512);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expectXlsxError(() => XlsxPackage.open(ole), "encrypted_or_xls");
  });

  test("a zip that is not a workbook", () => {
    const z = zipSync({ "readme.txt": strToU8("hello") });
    expectXlsxError(() => XlsxPackage.open(z), "not_xlsx");
  });

  test("a Word document", () => {
    const z = zipSync({
      "[Content_Types].xml": strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      "_rels/.rels": strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      "word/document.xml": strToU8("<w:document/>"),
    });
    expectXlsxError(() => Workbook.open(z), "not_xlsx");
  });

  test("malformed sheet XML → corrupt, naming the part", () => {
    const pkg = WritablePackage.open(fixtureBytes());
    pkg.write("xl/worksheets/sheet3.xml", pkg.readText("xl/worksheets/sheet3.xml").replace("</sheetData>", ""));
    const wb = Workbook.open(pkg.toBytes());
    const e = expectXlsxError(() => wb.findFormulas("CONTOSO"), "corrupt");
    expect(t("en", e.key, e.params)).toContain("xl/worksheets/sheet3.xml");
  });
});
