/**
 * Reference data of the generated dataset: counties (with ONRC numbers, a rough share of the
 * country's companies and a few real localities, the county seat first), activity codes, streets.
 */
import { fold, slugify } from "./text";

export interface County {
  /** Car-plate code: "CJ", "B". */
  code: string;
  /** Name with diacritics: "Cluj", "București". */
  name: string;
  /** Trade-registry county number, two digits: "12", "40". */
  onrc: string;
  /** Relative number of companies registered there. */
  weight: number;
  /** Real localities, the county seat first. */
  localities: string[];
}

// prettier-ignore
export const COUNTIES: readonly County[] = [
  { code: "AB", name: "Alba", onrc: "01", weight: 15, localities: ["Alba Iulia", "Aiud", "Sebeș", "Blaj"] },
  { code: "AR", name: "Arad", onrc: "02", weight: 20, localities: ["Arad", "Lipova", "Ineu"] },
  { code: "AG", name: "Argeș", onrc: "03", weight: 25, localities: ["Pitești", "Câmpulung", "Curtea de Argeș", "Mioveni"] },
  { code: "BC", name: "Bacău", onrc: "04", weight: 22, localities: ["Bacău", "Onești", "Moinești", "Comănești"] },
  { code: "BH", name: "Bihor", onrc: "05", weight: 32, localities: ["Oradea", "Salonta", "Marghita", "Beiuș"] },
  { code: "BN", name: "Bistrița-Năsăud", onrc: "06", weight: 11, localities: ["Bistrița", "Beclean", "Năsăud"] },
  { code: "BT", name: "Botoșani", onrc: "07", weight: 10, localities: ["Botoșani", "Dorohoi", "Darabani"] },
  { code: "BV", name: "Brașov", onrc: "08", weight: 36, localities: ["Brașov", "Făgăraș", "Săcele", "Codlea"] },
  { code: "BR", name: "Brăila", onrc: "09", weight: 11, localities: ["Brăila", "Ianca", "Făurei"] },
  { code: "BZ", name: "Buzău", onrc: "10", weight: 14, localities: ["Buzău", "Râmnicu Sărat", "Nehoiu"] },
  { code: "CS", name: "Caraș-Severin", onrc: "11", weight: 8, localities: ["Reșița", "Caransebeș", "Oțelu Roșu", "Moldova Nouă"] },
  { code: "CJ", name: "Cluj", onrc: "12", weight: 55, localities: ["Cluj-Napoca", "Turda", "Dej", "Florești"] },
  { code: "CT", name: "Constanța", onrc: "13", weight: 38, localities: ["Constanța", "Mangalia", "Medgidia", "Năvodari"] },
  { code: "CV", name: "Covasna", onrc: "14", weight: 8, localities: ["Sfântu Gheorghe", "Târgu Secuiesc", "Covasna"] },
  { code: "DB", name: "Dâmbovița", onrc: "15", weight: 16, localities: ["Târgoviște", "Moreni", "Pucioasa", "Găești"] },
  { code: "DJ", name: "Dolj", onrc: "16", weight: 23, localities: ["Craiova", "Băilești", "Calafat", "Filiași"] },
  { code: "GL", name: "Galați", onrc: "17", weight: 20, localities: ["Galați", "Tecuci", "Târgu Bujor"] },
  { code: "GJ", name: "Gorj", onrc: "18", weight: 11, localities: ["Târgu Jiu", "Motru", "Rovinari", "Bumbești-Jiu"] },
  { code: "HR", name: "Harghita", onrc: "19", weight: 11, localities: ["Miercurea Ciuc", "Odorheiu Secuiesc", "Gheorgheni", "Toplița"] },
  { code: "HD", name: "Hunedoara", onrc: "20", weight: 15, localities: ["Deva", "Hunedoara", "Petroșani", "Orăștie"] },
  { code: "IL", name: "Ialomița", onrc: "21", weight: 7, localities: ["Slobozia", "Fetești", "Urziceni"] },
  { code: "IS", name: "Iași", onrc: "22", weight: 35, localities: ["Iași", "Pașcani", "Hârlău", "Târgu Frumos"] },
  { code: "IF", name: "Ilfov", onrc: "23", weight: 45, localities: ["Buftea", "Voluntari", "Otopeni", "Popești-Leordeni"] },
  { code: "MM", name: "Maramureș", onrc: "24", weight: 18, localities: ["Baia Mare", "Sighetu Marmației", "Borșa", "Baia Sprie"] },
  { code: "MH", name: "Mehedinți", onrc: "25", weight: 7, localities: ["Drobeta-Turnu Severin", "Orșova", "Strehaia"] },
  { code: "MS", name: "Mureș", onrc: "26", weight: 22, localities: ["Târgu Mureș", "Reghin", "Sighișoara", "Târnăveni"] },
  { code: "NT", name: "Neamț", onrc: "27", weight: 15, localities: ["Piatra Neamț", "Roman", "Târgu Neamț"] },
  { code: "OT", name: "Olt", onrc: "28", weight: 10, localities: ["Slatina", "Caracal", "Balș", "Corabia"] },
  { code: "PH", name: "Prahova", onrc: "29", weight: 35, localities: ["Ploiești", "Câmpina", "Sinaia", "Mizil"] },
  { code: "SM", name: "Satu Mare", onrc: "30", weight: 12, localities: ["Satu Mare", "Carei", "Negrești-Oaș"] },
  { code: "SJ", name: "Sălaj", onrc: "31", weight: 8, localities: ["Zalău", "Șimleu Silvaniei", "Jibou"] },
  { code: "SB", name: "Sibiu", onrc: "32", weight: 22, localities: ["Sibiu", "Mediaș", "Cisnădie", "Agnita"] },
  { code: "SV", name: "Suceava", onrc: "33", weight: 22, localities: ["Suceava", "Fălticeni", "Rădăuți", "Câmpulung Moldovenesc"] },
  { code: "TR", name: "Teleorman", onrc: "34", weight: 8, localities: ["Alexandria", "Roșiorii de Vede", "Turnu Măgurele", "Zimnicea"] },
  { code: "TM", name: "Timiș", onrc: "35", weight: 45, localities: ["Timișoara", "Lugoj", "Sânnicolau Mare", "Jimbolia"] },
  { code: "TL", name: "Tulcea", onrc: "36", weight: 8, localities: ["Tulcea", "Babadag", "Măcin", "Isaccea"] },
  { code: "VS", name: "Vaslui", onrc: "37", weight: 9, localities: ["Vaslui", "Bârlad", "Huși", "Negrești"] },
  { code: "VL", name: "Vâlcea", onrc: "38", weight: 14, localities: ["Râmnicu Vâlcea", "Drăgășani", "Băile Olănești", "Horezu"] },
  { code: "VN", name: "Vrancea", onrc: "39", weight: 10, localities: ["Focșani", "Adjud", "Mărășești", "Panciu"] },
  { code: "B", name: "București", onrc: "40", weight: 230, localities: ["Sector 1", "Sector 2", "Sector 3", "Sector 4", "Sector 5", "Sector 6"] },
  { code: "CL", name: "Călărași", onrc: "51", weight: 7, localities: ["Călărași", "Oltenița", "Budești"] },
  { code: "GR", name: "Giurgiu", onrc: "52", weight: 7, localities: ["Giurgiu", "Bolintin-Vale", "Mihăilești"] },
];

/** Main activity codes (CAEN Rev. 2, four digits) with a rough frequency. */
// prettier-ignore
export const CAEN_CODES: ReadonlyArray<readonly [string, number]> = [
  ["4941", 45], ["4711", 40], ["4120", 35], ["6201", 30], ["5610", 25], ["7022", 25], ["4520", 20],
  ["6820", 20], ["0111", 18], ["4321", 15], ["6920", 15], ["4690", 15], ["4511", 12], ["9602", 12],
  ["4332", 10], ["4322", 10], ["6202", 10], ["4719", 8], ["4771", 8], ["8621", 8], ["8623", 8],
  ["7311", 8], ["7112", 8], ["4399", 8], ["4110", 8], ["5510", 7], ["4673", 7], ["0150", 6],
  ["1071", 6], ["4773", 6], ["4333", 6], ["4939", 6], ["5229", 6], ["7490", 6], ["8559", 6],
  ["5520", 5], ["7111", 5], ["2511", 5], ["1610", 5], ["3109", 5], ["4631", 5], ["4639", 5],
  ["6910", 5], ["8121", 5], ["4778", 5], ["4211", 4], ["4674", 4], ["5210", 4], ["6311", 4],
  ["8010", 4], ["2562", 4], ["4532", 4], ["3511", 3], ["0161", 3], ["1011", 3], ["2229", 3],
];

/** Street names as they are written in addresses. */
// prettier-ignore
export const STREETS: readonly string[] = [
  "Str. Mihai Eminescu", "Bd. Unirii", "Str. Libertății", "Calea Victoriei", "Str. Republicii",
  "Str. Avram Iancu", "Str. Ștefan cel Mare", "Bd. Independenței", "Str. Gării", "Str. Florilor",
  "Str. Primăverii", "Str. Morii", "Str. Dorobanților", "Str. Tudor Vladimirescu", "Str. Nicolae Bălcescu",
  "Str. Mihai Viteazu", "Str. Alexandru Ioan Cuza", "Str. 1 Decembrie 1918", "Str. Horea", "Str. Traian",
  "Str. Decebal", "Str. Lalelelor", "Str. Castanilor", "Str. Industriilor", "Str. Fabricii",
  "Șos. Industrială", "Str. Zorilor", "Str. Păcii", "Str. Teilor", "Calea Moșilor", "Str. Salcâmilor",
  "Str. Plopilor", "Str. Mărășești", "Bd. Revoluției", "Str. George Coșbuc", "Str. Ion Creangă",
];

export interface Locality {
  /** Index into COUNTIES. */
  county: number;
  name: string;
  /** Unique across the country (tested), used in ranking slugs. */
  slug: string;
}

export const LOCALITIES: readonly Locality[] = COUNTIES.flatMap((c, county) =>
  c.localities.map((name) => ({ county, name, slug: slugify(name) })),
);

/** A county by code ("cj", "B") or by name, case and diacritics ignored ("Iasi", "bucurești"). */
export function findCounty(text: string): County | undefined {
  const folded = fold(text.trim());
  return COUNTIES.find((c) => c.code === folded || fold(c.name) === folded);
}
