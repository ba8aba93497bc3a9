/** Company profiles (identification data), generated from the CUI. */
import { withControlDigit } from "../src/api/cui";
import { companyName } from "./names";
import { choose, hash, rng, Rng, Weighted } from "./random";
import { CAEN_CODES, COUNTIES, LOCALITIES, STREETS } from "./romania";
import {
  baseOfRegistry,
  countyIndex,
  exists,
  existingBase,
  foundingYear,
  localityIndex,
  registryNumber,
  SALT,
  sizeClass,
  Stare,
  stareOf,
} from "./space";

export interface Company {
  cui: number;
  denumire: string;
  j_cod: string;
  stare: Stare;
  /** County name, with diacritics. */
  judet: string;
  localitate: string;
  adresa: string;
  caen_principal: string;
  platitor_tva: boolean;
}

const CAEN_PICK = new Weighted(CAEN_CODES);
const { floor } = Math; // a module constant: fast under Jest (see random.ts)

function address(r: Rng): string {
  let text = `${choose(STREETS, r())} nr. ${1 + floor(r() * 180)}`;
  const extra = r();
  if (extra < 0.2) {
    text += `, bl. ${String.fromCharCode(65 + floor(r() * 8))}${1 + floor(r() * 20)}`;
    text += `, sc. ${1 + floor(r() * 4)}, ap. ${1 + floor(r() * 60)}`;
  } else if (extra < 0.3) {
    text += `, et. ${1 + floor(r() * 9)}`;
  }
  return text;
}

function jCode(base: number): string {
  return `J${COUNTIES[countyIndex(base)].onrc}/${registryNumber(base)}/${foundingYear(base)}`;
}

/** The profile of an existing base (no existence check). */
export function profileOf(base: number): Company {
  const r = rng(hash(base, SALT.profile));
  const county = COUNTIES[countyIndex(base)];
  const size = sizeClass(base);
  const denumire = companyName(r, county.name, foundingYear(base), size);
  return {
    cui: withControlDigit(base),
    denumire,
    j_cod: jCode(base),
    stare: stareOf(base),
    judet: county.name,
    localitate: LOCALITIES[localityIndex(base)].name,
    adresa: address(r),
    caen_principal: CAEN_PICK.pick(r()),
    platitor_tva: denumire.endsWith(" SA") || r() < [0.35, 0.85, 0.97, 1][size],
  };
}

/** The company with this CUI, or null when it does not exist (or its control digit is wrong). */
export function company(cui: number): Company | null {
  const base = existingBase(cui);
  return base === null ? null : profileOf(base);
}

/** The company registered under a trade-registry code such as "J12/3456/2004" (spaces, case and zero padding tolerated). */
export function companyByJCode(text: string): Company | null {
  const m = /^J\s*(\d{1,2})\s*\/\s*(\d{1,7})\s*\/\s*(\d{4})$/i.exec(text.trim());
  if (!m) return null;
  const base = baseOfRegistry(Number(m[3]), Number(m[2]));
  if (base === null || !exists(base)) return null;
  return Number(COUNTIES[countyIndex(base)].onrc) === Number(m[1]) ? profileOf(base) : null;
}
