import { isValidCui } from "../../src/api/cui";
import { latestYearAt } from "../../sandbox/clock";
import {
  company,
  companyByJCode,
  COUNTIES,
  EXAMPLE_CUI,
  financials,
  FIRST_YEAR,
  LATEST_YEAR,
  missingCuis,
  sampleCuis,
  STARI,
} from "../../sandbox/dataset";
import { LOCALITIES } from "../../sandbox/romania";
import { fold } from "../../sandbox/text";

// prettier-ignore
const ONRC: Record<string, string> = {
  AB: "01", AR: "02", AG: "03", BC: "04", BH: "05", BN: "06", BT: "07", BV: "08", BR: "09", BZ: "10", CS: "11", CJ: "12",
  CT: "13", CV: "14", DB: "15", DJ: "16", GL: "17", GJ: "18", HR: "19", HD: "20", IL: "21", IS: "22", IF: "23", MM: "24",
  MH: "25", MS: "26", NT: "27", OT: "28", PH: "29", SM: "30", SJ: "31", SB: "32", SV: "33", TR: "34", TM: "35", TL: "36",
  VS: "37", VL: "38", VN: "39", B: "40", CL: "51", GR: "52",
};

describe("the company space", () => {
  test("sampleCuis(100000) gives 100,000 distinct CUIs with valid control digits, all existing", () => {
    const cuis = sampleCuis(100_000);
    expect(cuis).toHaveLength(100_000);
    expect(new Set(cuis).size).toBe(100_000);
    expect(cuis.every(isValidCui)).toBe(true);
    expect(cuis.every((c) => company(c) !== null)).toBe(true);
  });

  test("sampleCuis with an offset continues the same sequence", () => {
    expect(sampleCuis(10, 5)).toEqual(sampleCuis(15).slice(5));
  });

  test("missingCuis have valid control digits and do not exist", () => {
    const cuis = missingCuis(500);
    expect(new Set(cuis).size).toBe(500);
    expect(cuis.every((c) => isValidCui(c) && company(c) === null && financials(c).length === 0)).toBe(true);
  });

  test("a CUI with a wrong control digit is unknown", () => {
    expect(company(EXAMPLE_CUI + 1)).toBeNull();
  });

  test("the README's example CUI 14399840 exists", () => {
    expect(company(EXAMPLE_CUI)).toMatchObject({ cui: 14399840 });
  });

  test("the same CUI always gives the same company and figures", () => {
    const [cui] = sampleCuis(1, 777);
    expect(company(cui)).toEqual(company(cui));
    expect(financials(cui)).toEqual(financials(cui));
  });
});

describe("profiles", () => {
  const companies = sampleCuis(5000).map((c) => company(c)!);

  test("names are in capitals and end with a legal form, SRL the most common", () => {
    expect(companies.every((c) => c.denumire === c.denumire.toUpperCase() && / (SRL|SA|SNC|SCS|SCA)$/.test(c.denumire))).toBe(true);
    const srl = companies.filter((c) => c.denumire.endsWith(" SRL")).length;
    expect(srl / companies.length).toBeGreaterThan(0.85);
  });

  test("the trade-registry code is J{county number}/{number}/{founding year} and leads back to the company", () => {
    for (const c of companies.slice(0, 500)) {
      const county = COUNTIES.find((k) => k.name === c.judet)!;
      expect(c.j_cod).toMatch(new RegExp(`^J${county.onrc}/\\d+/(199[1-9]|20[0-2]\\d)$`));
      expect(companyByJCode(c.j_cod)).toEqual(c);
    }
    expect(companyByJCode("J99/1/2001")).toBeNull();
  });

  test("counties, localities, CAEN codes, statuses and VAT flags look real", () => {
    for (const c of companies) {
      const county = COUNTIES.find((k) => k.name === c.judet);
      expect(county?.localities).toContain(c.localitate);
      expect(c.caen_principal).toMatch(/^\d{4}$/);
      expect(STARI).toContain(c.stare);
      expect(typeof c.platitor_tva).toBe("boolean");
      expect(c.adresa).toMatch(/ nr\. \d+/);
    }
    const active = companies.filter((c) => c.stare === "ACTIVA").length / companies.length;
    expect(active).toBeGreaterThan(0.7);
    expect(new Set(companies.map((c) => c.caen_principal)).size).toBeGreaterThan(40);
  });

  test("companies spread over the counties by population: Bucharest first, then the big counties", () => {
    const share = (name: string) => companies.filter((c) => c.judet === name).length / companies.length;
    expect(share("București")).toBeGreaterThan(0.15);
    expect(share("Cluj")).toBeGreaterThan(share("Sălaj"));
    expect(new Set(companies.map((c) => c.judet)).size).toBe(42);
  });
});

describe("reference data", () => {
  test("41 counties and Bucharest, with their ONRC numbers and diacritics in the names", () => {
    expect(Object.fromEntries(COUNTIES.map((c) => [c.code, c.onrc]))).toEqual(ONRC);
    expect(COUNTIES.find((c) => c.code === "IS")?.name).toBe("Iași");
    expect(COUNTIES.find((c) => c.code === "B")?.name).toBe("București");
  });

  test("each county lists real localities, the seat first; locality slugs are unique", () => {
    expect(COUNTIES.find((c) => c.code === "CJ")?.localities[0]).toBe("Cluj-Napoca");
    expect(COUNTIES.every((c) => c.localities.length >= 2 && c.localities.length <= (c.code === "B" ? 6 : 4))).toBe(true);
    expect(new Set(LOCALITIES.map((l) => l.slug)).size).toBe(LOCALITIES.length);
  });

  test("fold ignores case and diacritics, both comma and cedilla forms", () => {
    expect(fold("Iași")).toBe("IASI");
    expect(fold("Timişoara")).toBe(fold("Timișoara"));
  });
});

describe("financial years", () => {
  const cuis = sampleCuis(3000, 20_000);

  test("run from the founding year (not before 2010) to the latest year, latest first, as integers", () => {
    for (const cui of cuis.slice(0, 300)) {
      const years = financials(cui);
      years.forEach((f, i) => {
        expect(f.cui).toBe(cui);
        if (i > 0) expect(f.an).toBeLessThan(years[i - 1].an);
        expect(f.an).toBeGreaterThanOrEqual(FIRST_YEAR);
        expect(f.an).toBeLessThanOrEqual(LATEST_YEAR);
        for (const v of [f.cifra_afaceri, f.profit_net, f.active_totale, f.datorii_totale, f.numar_angajati])
          expect(Number.isInteger(v)).toBe(true);
      });
    }
  });

  test("an old active company has at least 10 years", () => {
    const old = cuis.find((c) => company(c)!.stare === "ACTIVA" && Number(company(c)!.j_cod.slice(-4)) < 2000)!;
    expect(financials(old).length).toBeGreaterThanOrEqual(10);
    expect(
      financials(old)
        .map((f) => f.an)
        .slice(-1)[0],
    ).toBe(2010);
  });

  test("some companies lose money, a few miss a year", () => {
    const all = cuis.map((c) => financials(c));
    expect(all.some((years) => years.some((f) => f.profit_net < 0))).toBe(true);
    const gaps = all.filter((years) => years.some((f, i) => i > 0 && years[i - 1].an - f.an > 1));
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps.length).toBeLessThan(cuis.length * 0.05);
  });

  test("revenue follows a trend: consecutive years stay within a plausible ratio", () => {
    const mature = cuis.map((c) => financials(c)).filter((y) => y.length >= 6 && y[0].cifra_afaceri > 0);
    for (const years of mature.slice(0, 200)) {
      for (let i = 1; i < years.length - 2; i++) {
        if (years[i - 1].an - years[i].an !== 1) continue;
        const ratio = years[i - 1].cifra_afaceri / years[i].cifra_afaceri;
        expect(ratio).toBeGreaterThan(0.5);
        expect(ratio).toBeLessThan(2);
      }
    }
  });

  test("the latest year is last year from July on and the year before until June, in Bucharest", () => {
    expect(latestYearAt(Date.parse("2026-11-22T12:00:00Z"))).toBe(2025);
    expect(latestYearAt(Date.parse("2026-06-30T20:00:00Z"))).toBe(2024);
    expect(latestYearAt(Date.parse("2026-06-30T21:30:00Z"))).toBe(2025); // already 1 July in Bucharest
    expect(latestYearAt(Date.parse("2027-01-01T00:00:00Z"))).toBe(2025);
  });
});
