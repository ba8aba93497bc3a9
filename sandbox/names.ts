/** Company names in the style of the Romanian trade registry: capitals, a legal form at the end. */
import { choose, Rng } from "./random";
import type { SizeClass } from "./space";

// prettier-ignore
const ROOTS = [
  "AGRO", "ELECTRO", "AUTO", "TRANS", "METAL", "TERMO", "HIDRO", "EURO", "INFO", "TEHNO", "BIO", "FARM",
  "MED", "CONSTRUCT", "DESIGN", "INSTAL", "MOB", "LEMN", "PAN", "TEX", "PLAST", "GEO", "ENERGO", "TOP",
  "PRIMA", "NOVA", "ROM", "INTER", "MEGA", "ALFA", "DELTA", "OMEGA", "MULTI", "GLOBAL", "CRISTAL",
  "DIAMANT", "SOFT", "NET", "DATA", "DIGITAL", "VEST", "NORD", "SUD", "CENTRAL", "CARPAT", "DACIA",
];
// prettier-ignore
const GLUE_ROOTS = ["AGRO", "ELECTRO", "AUTO", "TERMO", "HIDRO", "EURO", "INFO", "TEHNO", "BIO", "MED", "GEO", "ROM", "INTER", "MEGA", "MULTI"];
// prettier-ignore
const GLUED = ["SERV", "MEC", "COM", "PROD", "TRANS", "TEX", "CONS", "MAR", "TOUR", "FARM", "LUX", "VIT"];
// prettier-ignore
const TAILS = [
  "IMPEX", "COM", "TRADING", "SERVICE", "PROD", "CONSTRUCT", "INVEST", "CONSULT", "GROUP", "DISTRIBUTION",
  "TRANS", "SYSTEMS", "SOLUTIONS", "EXPERT", "PLUS", "STAR", "PREST", "MARKET", "FOOD", "LOGISTICS",
  "AUTO", "INSTAL", "HOLDING", "INDUSTRIES",
];
// prettier-ignore
const REGIONS = [
  "MUNTENIA", "MOLDOVA", "OLTENIA", "BANAT", "ARDEAL", "TRANSILVANIA", "DOBROGEA", "BUCOVINA", "CRIȘANA",
  "MARAMUREȘ", "CARPAȚI", "DUNĂREA", "SOMEȘ", "BĂRĂGAN", "CÂMPIA", "ȚARA BÂRSEI",
];
// prettier-ignore
const SURNAMES = [
  "POPESCU", "IONESCU", "POPA", "RADU", "DUMITRU", "STAN", "STOICA", "GHEORGHE", "MATEI", "CONSTANTIN",
  "MARIN", "ȘERBAN", "MUNTEANU", "DINU", "TUDOR", "LUPU", "BARBU", "NISTOR", "FLOREA", "MOLDOVAN",
  "ILIE", "CRISTEA", "TOMA", "SIMA", "OPREA", "ENACHE", "NEAGU", "ZAHARIA", "BĂLAN", "MIHAI", "VLAD",
  "PETRESCU", "DRĂGHICI", "COSTACHE", "ROTARU", "URSU", "MOCANU", "SAVA", "VASILE", "UNGUREANU",
  "CIOBANU", "PÎRVU", "CONSTANTINESCU", "FĂRCAȘ", "KOVÁCS", "SZABÓ",
];
// prettier-ignore
const FIRST_NAMES = ["ANDREI", "MARIA", "ION", "ELENA", "MIHAI", "ANA", "GEORGE", "IOANA", "DAN", "CRISTINA", "VASILE", "ALEXANDRA"];
const FAMILY = ["& FIII", "& ASOCIAȚII", "& CO", "FAMILY"];

/** Legal form: mostly SRL; SA far likelier for big companies. */
function legalForm(u: number, size: SizeClass): string {
  const sa = [0.015, 0.03, 0.12, 0.55][size];
  if (u < sa) return "SA";
  if (u < sa + 0.015) return "SNC";
  if (u < sa + 0.022) return "SCS";
  if (u < sa + 0.024) return "SCA";
  return "SRL";
}

/** A name drawn from r, flavoured by the company's county, founding year and size. */
export function companyName(r: Rng, countyName: string, founded: number, size: SizeClass): string {
  const pick = (list: readonly string[]) => choose(list, r());
  const place = r() < 0.5 ? countyName.toUpperCase() : pick(REGIONS);
  const style = r();
  let stem: string;
  if (style < 0.22) stem = `${pick(ROOTS)} ${pick(TAILS)}`;
  else if (style < 0.36) stem = `${pick(ROOTS)} ${pick(TAILS)} ${place}`;
  else if (style < 0.5) stem = `${pick(ROOTS)} ${place} ${pick(TAILS)}`;
  else if (style < 0.62) stem = `${pick(SURNAMES)} ${pick(FAMILY)}`;
  else if (style < 0.76) stem = `${pick(SURNAMES)} ${pick(TAILS)}`;
  else if (style < 0.84) stem = `${pick(FIRST_NAMES)} & ${pick(FIRST_NAMES)} ${pick(TAILS)}`;
  else stem = `${pick(GLUE_ROOTS)}${pick(GLUED)}`;
  if (r() < 0.12) stem += ` ${r() < 0.5 ? founded : String(founded).slice(2)}`;
  return `${stem} ${legalForm(r(), size)}`;
}
