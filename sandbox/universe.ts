/**
 * The search universe: the first UNIVERSE_SIZE companies of the sample order (spread over all years
 * and counties), built once on first use. Name search and rankings look only at these companies;
 * lookups by CUI or trade-registry code reach every company.
 */
import { filing, Filing } from "./finance";
import { Company, profileOf } from "./profile";
import { countyIndex, localityIndex, sampleBases } from "./space";

export const UNIVERSE_SIZE = 100_000;

export interface Universe {
  /** Ascending CUI; the arrays below are indexed alike. */
  companies: Company[];
  bases: Int32Array;
  county: Uint8Array;
  locality: Uint16Array;
  filings: Filing[];
}

let built: Universe | null = null;

export function universe(): Universe {
  if (built) return built;
  const bases = Int32Array.from(sampleBases(UNIVERSE_SIZE)).sort();
  built = {
    companies: Array.from(bases, profileOf),
    bases,
    county: Uint8Array.from(bases, countyIndex),
    locality: Uint16Array.from(bases, localityIndex),
    filings: Array.from(bases, filing),
  };
  return built;
}
