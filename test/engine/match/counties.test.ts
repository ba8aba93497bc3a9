/** The county table and the county a cell names (counties.ts). */
import { COUNTIES, parseCounty } from "../../../src/engine/match/counties";
import { COUNTIES as SANDBOX_COUNTIES } from "../../../sandbox/romania";

test("41 counties and Bucharest, with the codes and names the sandbox's registry uses", () => {
  expect(COUNTIES).toHaveLength(42);
  expect(new Set(COUNTIES.map((c) => c.code)).size).toBe(42);
  const sandbox = new Map(SANDBOX_COUNTIES.map((c) => [c.code, c.name]));
  for (const c of COUNTIES) expect(sandbox.get(c.code)).toBe(c.name);
});

test("every county by code, by name with and without diacritics, in any case", () => {
  for (const c of COUNTIES) {
    const plain = c.name.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    for (const text of [c.code, c.code.toLowerCase(), c.name, c.name.toUpperCase(), plain, plain.toLowerCase(), ` ${c.name} `])
      expect(parseCounty(text)).toEqual(c);
  }
});

test.each([
  ["Municipiul București", "B"],
  ["mun. Bucuresti", "B"],
  ["Sector 3", "B"],
  ["sectorul 6", "B"],
  ["București, sector 2", "B"],
  ["Bucharest", "B"],
  ["Județul Bacău", "BC"],
  ["jud. Bacau", "BC"],
  ["Bistrita Nasaud", "BN"],
  ["BISTRIȚA-NĂSĂUD", "BN"],
  ["Caras-Severin", "CS"],
  ["satu mare", "SM"],
  ["Ţimiş".replace("Ţ", "T"), "TM"],
  ["Constanţa", "CT"], // cedilla
])("%s → %s", (text, code) => {
  expect(parseCounty(text)?.code).toBe(code);
});

test("blank is no county; anything else unknown is null", () => {
  for (const blank of [undefined, null, "", "   "]) expect(parseCounty(blank)).toBeUndefined();
  for (const bad of ["Atlantida", "XX", "Sector 7", "Cluj-Napoca", 12, true, "BCC"]) expect(parseCounty(bad)).toBeNull();
});
