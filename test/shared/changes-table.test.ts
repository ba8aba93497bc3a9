/**
 * The changes a refresh found, as the pane lists them and writes them to a sheet: in the user's
 * language, values as a reader reads them, the company by its name, dates that sort as text.
 */
import type { Change } from "../../src/engine/engine";
import { changeDate, changeTable, changeValue } from "../../src/shared/changes-table";

const at = (iso: string) => new Date(iso).getTime();
const changes: Change[] = [
  {
    cui: 14399840,
    field: "stare",
    before: "ACTIVA",
    after: "INSOLVENTA",
    beforeFetchedAt: at("2026-10-01T09:05:00"),
    afterFetchedAt: at("2026-11-24T17:30:00"),
    name: "DANTE INTERNATIONAL SA",
  },
  {
    cui: 14399840,
    field: "platitor_tva",
    before: true,
    after: false,
    beforeFetchedAt: null,
    afterFetchedAt: at("2026-11-24T17:30:00"),
    name: "DANTE INTERNATIONAL SA",
  },
  {
    cui: 18509601,
    field: "denumire",
    before: "NORD EXPERT SRL",
    after: "NORD EXPERT GRUP SRL",
    beforeFetchedAt: null,
    afterFetchedAt: at("2026-11-24T17:31:00"),
    name: "NORD EXPERT GRUP SRL",
  },
  // saved before names were recorded (an older pane's store): no name
  {
    cui: 13959451,
    field: "adresa",
    before: "Str. Veche 1",
    after: null,
    beforeFetchedAt: null,
    afterFetchedAt: at("2026-11-24T17:31:00"),
  } as unknown as Change,
];

test("one row per change: CUI, company, field, before, after, and both dates, in Romanian", () => {
  const { header, rows, textColumns } = changeTable(changes, "ro");
  expect(header).toEqual(["CUI", "Firma", "Câmp", "Înainte", "După", "Valoare veche din", "Aflat la"]);
  expect(rows).toEqual([
    [14399840, "DANTE INTERNATIONAL SA", "Stare", "ACTIVA", "INSOLVENTA", "2026-10-01 09:05", "2026-11-24 17:30"],
    [14399840, "DANTE INTERNATIONAL SA", "Plătitor de TVA", "da", "nu", "", "2026-11-24 17:30"],
    // a change of name names the company by its new name
    [18509601, "NORD EXPERT GRUP SRL", "Denumire", "NORD EXPERT SRL", "NORD EXPERT GRUP SRL", "", "2026-11-24 17:31"],
    // no name recorded: the company column is empty (the pane shows the CUI); a value gone is empty
    [13959451, "", "Adresă", "Str. Veche 1", "", "", "2026-11-24 17:31"],
  ]);
  // every column but the CUI is written as text
  expect(textColumns).toEqual([1, 2, 3, 4, 5, 6]);
});

test("in English, field names, yes/no and headers follow", () => {
  const { header, rows } = changeTable(changes.slice(0, 2), "en");
  expect(header).toEqual(["CUI", "Company", "Field", "Before", "After", "Old value as of", "Found on"]);
  expect(rows.map((r) => r.slice(2, 5))).toEqual([
    ["Status", "ACTIVA", "INSOLVENTA"],
    ["VAT registered", "yes", "no"],
  ]);
});

test("values and dates as a reader reads them", () => {
  expect([changeValue(null, "ro"), changeValue(undefined, "en"), changeValue(12, "ro"), changeValue(false, "en")]).toEqual([
    "",
    "",
    "12",
    "no",
  ]);
  expect([changeDate(null), changeDate(Number.NaN)]).toEqual(["", ""]);
  expect(changeDate(at("2026-01-02T03:04:00"))).toBe("2026-01-02 03:04");
});
