/**
 * Romania's 41 counties and Bucharest, by car-plate code, and the county a cell's text names: the
 * code (`BC`), the name with or without diacritics (`Bacău`, `Bacau`, `BISTRITA-NASAUD`), with
 * `Județul`/`Jud.` or `Municipiul`/`Mun.` before it, and for Bucharest its sectors (`Sector 3`,
 * `București, sector 3`) and its English name.
 */
import { foldText } from "./normalize";

export interface CountyRef {
  /** Car-plate code: "BC", "B". */
  code: string;
  /** Name with diacritics: "Bacău", "București". */
  name: string;
}

// prettier-ignore
export const COUNTIES: readonly CountyRef[] = [
  ["AB", "Alba"], ["AR", "Arad"], ["AG", "Argeș"], ["BC", "Bacău"], ["BH", "Bihor"], ["BN", "Bistrița-Năsăud"],
  ["BT", "Botoșani"], ["BV", "Brașov"], ["BR", "Brăila"], ["BZ", "Buzău"], ["CS", "Caraș-Severin"], ["CL", "Călărași"],
  ["CJ", "Cluj"], ["CT", "Constanța"], ["CV", "Covasna"], ["DB", "Dâmbovița"], ["DJ", "Dolj"], ["GL", "Galați"],
  ["GR", "Giurgiu"], ["GJ", "Gorj"], ["HR", "Harghita"], ["HD", "Hunedoara"], ["IL", "Ialomița"], ["IS", "Iași"],
  ["IF", "Ilfov"], ["MM", "Maramureș"], ["MH", "Mehedinți"], ["MS", "Mureș"], ["NT", "Neamț"], ["OT", "Olt"],
  ["PH", "Prahova"], ["SM", "Satu Mare"], ["SJ", "Sălaj"], ["SB", "Sibiu"], ["SV", "Suceava"], ["TR", "Teleorman"],
  ["TM", "Timiș"], ["TL", "Tulcea"], ["VS", "Vaslui"], ["VL", "Vâlcea"], ["VN", "Vrancea"], ["B", "București"],
].map(([code, name]) => ({ code, name }));

/** Folded name or code → county. */
const BY_TEXT = new Map<string, CountyRef>();
for (const c of COUNTIES) {
  BY_TEXT.set(c.code, c);
  BY_TEXT.set(plain(c.name), c);
  BY_TEXT.set(plain(c.name).replace(/ /g, ""), c); // "SATUMARE", "CARASSEVERIN"
}
BY_TEXT.set("BUCHAREST", COUNTIES[COUNTIES.length - 1]);

/** Folded, words separated by one space: "Bistrița-Năsăud" → "BISTRITA NASAUD". */
function plain(text: string): string {
  return foldText(text)
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

const PREFIX = /^(?:JUDETUL|JUDET|JUD|MUNICIPIUL|MUNICIPIU|MUN) /;
const SECTOR = /^(?:(?:BUCURESTI|BUCHAREST|B) )?(?:SECTORUL|SECTOR|SECT|S) ?[1-6]$/;
const TRAILING_SECTOR = / (?:SECTORUL|SECTOR|SECT|S) ?[1-6]$/;

/**
 * The county a cell names: undefined when the cell is blank, null when it names none FIRMA knows
 * (the text is then reported, and nothing is searched).
 */
export function parseCounty(text: unknown): CountyRef | null | undefined {
  if (text === null || text === undefined) return undefined;
  if (typeof text !== "string") return null;
  let s = plain(text);
  if (s === "") return undefined;
  for (let prev = ""; prev !== s;) {
    prev = s;
    s = s.replace(PREFIX, "");
  }
  if (SECTOR.test(s)) return BY_TEXT.get("B") ?? null;
  s = s.replace(TRAILING_SECTOR, "");
  return BY_TEXT.get(s) ?? BY_TEXT.get(s.replace(/ /g, "")) ?? null;
}

/** The county code of a text the service sent (a name or a code), undefined when none is recognized. */
export function countyCodeOf(text: unknown): string | undefined {
  return parseCounty(text)?.code;
}
