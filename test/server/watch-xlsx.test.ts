/**
 * `firma watch add|set --file F.xlsx` (src/server/firm/watch-file.ts over src/shared/xlsx/) as an
 * administrator types it, in this process, against a SQLite file in a temporary folder: workbooks
 * made here as Excel saves them (test/fixtures/build-workbook.ts), with a header, blanks, a
 * duplicate, CUIs as numbers and as "RO" text, a formula's saved result; the sheet of the CUIs found
 * past a cover sheet; a bad cell refused with its row; `--column`; files that are not workbooks.
 * Every refusal is one line from the catalogs, exit 2, and nothing written.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { withControlDigit } from "../../src/api/cui";
import { main } from "../../src/server/firm/watch-command";
import { openFirmStore } from "../../src/server/firm/open-store";
import { WritablePackage } from "../../src/cli/writable-package";
import { buildWorkbook, type BuildCell } from "../fixtures/build-workbook";

const NOW = Date.UTC(2026, 10, 25, 12, 0);
const CUIS = [1234567, 7654321, 1111, 2222, 3333].map(withControlDigit);

let dir: string;
let db: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-xlsx-"));
  db = path.join(dir, "firm.db");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function watch(argv: string[], lang?: "en"): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, "--database", db, ...(lang ? ["--lang", lang] : [])], {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env: {},
    now: () => NOW,
  });
  return { code, out: out.join(""), err: err.join("") };
}

function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
}

/** A workbook of one or more sheets (rows from A1), without the add-in's binding. */
const workbook = (name: string, ...sheets: { name: string; rows: BuildCell[][] }[]) => file(name, buildWorkbook({ sheets, addin: false }));

async function members(list: string): Promise<number[]> {
  const s = await openFirmStore(db);
  try {
    return await s.watch.members(list);
  } finally {
    await s.close();
  }
}
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

test("a workbook's CUIs past a cover sheet: header, numbers and RO text, a formula's result, a blank and a duplicate, each CUI once", async () => {
  const f = workbook(
    "clienti.xlsx",
    { name: "Note", rows: [["Clienții firmei, actualizat lunar"], ["Vezi foaia Clienți"]] },
    {
      name: "Clienți",
      rows: [
        ["Nume", { value: "CUI", style: "header" }],
        ["Alfa SRL", { value: CUIS[0], style: "integer" }],
        ["Beta SA", `RO${CUIS[1]}`],
        ["Fără cod", null],
        ["Gama", { formula: "=" + String(CUIS[2]), form: "plain", cached: CUIS[2] }],
        ["Alfa iar", ` ${CUIS[0]} `],
      ],
    },
  );
  const r = await watch(["add", "clienti", "--file", f, "--firm"]);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  expect(r.out).toContain(
    `Din ${f}, coloana B a foii „Clienți”: 3 CUI-uri; 1 celule goale sărite, 1 duplicate luate o dată; primul rând, antet.`,
  );
  expect(r.out).toContain("Lista clienti (a firmei) urmărește 3 firme.");
  expect(await members("clienti")).toEqual(sorted(CUIS.slice(0, 3)));
});

test("a bad cell is refused with its row and sheet (text, a wrong check digit, a fraction, an error), and nothing is written", async () => {
  const f = workbook("furnizori.xlsx", {
    name: "Furnizori",
    rows: [["CIF"], [CUIS[0]], ["nu știu"], [null], [CUIS[1] + 1], [12.5], [{ error: "#N/A", message: "" }], [CUIS[2]]],
  });
  const r = await watch(["add", "furnizori", "--file", f, "--firm"]);
  expect(r.code).toBe(2);
  expect(r.err).toBe(
    `firma watch: fișierul ${f} are în coloana A a foii „Furnizori” celule care nu sunt CUI-uri valide (4): ` +
      `rândul 3 („nu știu”: nu e un CUI: doar cifre, opțional cu RO); rândul 5 („${CUIS[1] + 1}”: cifra de control nu se potrivește); ` +
      "rândul 6 („12.5”: nu e un CUI: doar cifre, opțional cu RO); rândul 7 („#N/A”: nu e un CUI: doar cifre, opțional cu RO). " +
      "Corectați-le sau ștergeți rândurile; nu s-a scris nimic.\n",
  );
  expect(fs.existsSync(db)).toBe(false);
  const en = await watch(["add", "furnizori", "--file", f, "--firm"], "en");
  expect(en.err).toContain(`has cells in column A of sheet "Furnizori" that are not valid CUIs (4): row 3 ("nu știu"`);
  expect(fs.existsSync(db)).toBe(false);
});

test("--column picks the column, by letter or by header, on the sheet of the CUIs; an empty column is refused", async () => {
  const f = workbook(
    "doua.xlsx",
    { name: "Cuprins", rows: [["Două coloane de coduri"]] },
    {
      name: "Parteneri",
      rows: [
        ["Cod client", "Nume", "CIF"],
        [CUIS[3], "Delta", CUIS[0]],
        [CUIS[4], "Epsilon", CUIS[1]],
      ],
    },
  );
  expect((await watch(["add", "parteneri", "--file", f, "--firm"])).code).toBe(0);
  expect(await members("parteneri")).toEqual(sorted(CUIS.slice(0, 2)));
  const byLetter = await watch(["set", "parteneri", "--file", f, "--column", "A"]);
  expect([byLetter.code, byLetter.err]).toEqual([0, ""]);
  expect(byLetter.out).toContain(`Din ${f}, coloana A a foii „Parteneri”: 2 CUI-uri`);
  expect(await members("parteneri")).toEqual(sorted(CUIS.slice(3, 5)));
  const byHeader = await watch(["set", "parteneri", "--file", f, "--column", "cod  CLIENT"]);
  expect(byHeader.code).toBe(0);
  expect(byHeader.out).toContain("coloana A a foii „Parteneri”");
  const empty = await watch(["set", "parteneri", "--file", f, "--column", "D"]);
  expect([empty.code, empty.err]).toEqual([
    2,
    `firma watch: fișierul ${f} nu are niciun CUI în coloana D a foii „Parteneri”; nu s-a scris nimic.\n`,
  ]);
  const missing = await watch(["set", "parteneri", "--file", f, "--column", "Cod fiscal"]);
  expect(missing.err).toContain("nu are coloana „Cod fiscal”");
  expect(await members("parteneri")).toEqual(sorted(CUIS.slice(3, 5)));
});

test("files that are not workbooks: refused with what the reader found, exit 2, nothing written", async () => {
  const text = file("lista.xlsx", `CUI\n${CUIS[0]}\n`);
  const notZip = await watch(["add", "x", "--file", text, "--firm"]);
  expect([notZip.code, notZip.err]).toEqual([
    2,
    `firma watch: fișierul ${text} nu poate fi citit ca registru Excel: Fișierul nu este un registru Excel .xlsx (nu este o arhivă ZIP); nu s-a scris nimic.\n`,
  ]);
  // a ZIP that is not a workbook (a .docx, say), found by its bytes whatever its name
  const zip = file("lista", WritablePackage.create([["word/document.xml", "<w:document/>"]]).toBytes());
  const notXlsx = await watch(["add", "x", "--file", zip, "--firm"], "en");
  expect([notXlsx.code, notXlsx.err]).toEqual([
    2,
    `firma watch: the file ${zip} cannot be read as an Excel workbook: The file is a ZIP archive but not an Excel .xlsx workbook ([Content_Types].xml is missing); nothing was written.\n`,
  ]);
  // an encrypted workbook or an old .xls (an OLE compound file)
  const ole = file("vechi.xls", Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array<number>(504).fill(0)]));
  const x = await watch(["add", "x", "--file", ole, "--firm"]);
  expect([x.code, x.err]).toEqual([2, expect.stringContaining(`fișierul ${ole} nu poate fi citit ca registru Excel: `)]);
  // a damaged workbook: a real one cut short
  const whole = buildWorkbook({ sheets: [{ name: "S", rows: [["CUI"], [CUIS[0]]] }], addin: false });
  const cut = file("taiat.xlsx", whole.subarray(0, whole.length - 40));
  const damaged = await watch(["add", "x", "--file", cut, "--firm"]);
  expect([damaged.code, damaged.err]).toEqual([
    2,
    expect.stringContaining("nu poate fi citit ca registru Excel: Fișierul .xlsx este deteriorat"),
  ]);
  expect(fs.existsSync(db)).toBe(false);
});
