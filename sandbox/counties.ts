/** The county list with active-company counts over the whole dataset (one scan on first use, then cached). */
import { COUNTIES } from "./romania";
import { countyIndex, forEachBase, stareOf } from "./space";

export interface CountyRow {
  cod: string;
  denumire: string;
  cod_onrc: string;
  firme_active: number;
}

let rows: CountyRow[] | null = null;

export function countyRows(): CountyRow[] {
  if (rows) return rows;
  const active = new Array<number>(COUNTIES.length).fill(0);
  forEachBase((base) => {
    if (stareOf(base) === "ACTIVA") active[countyIndex(base)]++;
  });
  rows = COUNTIES.map((c, i) => ({
    cod: c.code,
    denumire: c.name,
    cod_onrc: c.onrc,
    firme_active: active[i],
  }));
  return rows;
}
