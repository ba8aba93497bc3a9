/** The sandbox's name search under its two settings (searchMode × searchDiacritics), and names planted by overrides. */
import { call, cuisOf } from "./testkit";
import { company } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";
import { universe } from "../../sandbox/universe";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());
beforeEach(() => Object.assign(sb.config, { searchMode: "word-prefix", searchDiacritics: "folded", overrides: {} }));

const found = async (q: string) => cuisOf((await call(sb, `/v4/firme/search?q=${encodeURIComponent(q)}&limit=100`)).body.data);
/** A universe company whose name has a diacritic in its first word. */
const withDiacritic = () => universe().companies.find((c) => /^[A-Z]*[ĂÂÎȘȚ]/.test(c.denumire) && c.denumire.split(" ").length >= 3)!;

test("word-prefix (default): word starts in any order; substring: the text itself, in order", async () => {
  const c = withDiacritic();
  const [w1, w2] = c.denumire.split(" ");
  expect(await found(`${w2} ${w1.slice(0, 3)}`)).toContain(c.cui);
  sb.config.searchMode = "substring";
  expect(await found(`${w2} ${w1.slice(0, 3)}`)).not.toContain(c.cui);
  expect(await found(`${w1} ${w2}`.toLowerCase())).toContain(c.cui);
  expect(await found(`${w1.slice(1)} ${w2.slice(0, 2)}`)).toContain(c.cui); // inside a word
});

test("diacritics folded (default) or exact, under both modes", async () => {
  const c = withDiacritic();
  const first = c.denumire.split(" ")[0];
  const plain = first.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  for (const mode of ["word-prefix", "substring"] as const) {
    sb.config.searchMode = mode;
    sb.config.searchDiacritics = "folded";
    expect(await found(plain)).toContain(c.cui);
    expect(await found(first)).toContain(c.cui);
    sb.config.searchDiacritics = "exact";
    expect(await found(plain)).not.toContain(c.cui);
    expect(await found(first.toLowerCase())).toContain(c.cui);
  }
});

test("a bad setting is refused", async () => {
  const r = await call(sb, "/__sandbox/config", null, { method: "PUT", body: JSON.stringify({ searchMode: "fuzzy" }) });
  expect(r.status).toBe(400);
});

test("a company renamed by an override is found by its new name only, in search answers with the new name", async () => {
  const c = universe().companies[1234];
  const other = company(14399840)!;
  sb.config.overrides = {
    [String(c.cui)]: { denumire: "ZZLOOKALIKE UNIC SRL" },
    [String(other.cui)]: { denumire: "ZZLOOKALIKE UNIC SA", judet: "Cluj" },
  };
  for (const mode of ["word-prefix", "substring"] as const) {
    sb.config.searchMode = mode;
    const r = await call(sb, "/v4/firme/search?q=ZZLOOKALIKE%20UNIC&limit=100");
    expect(r.body.data.map((i: { denumire: string }) => i.denumire).sort()).toEqual(["ZZLOOKALIKE UNIC SA", "ZZLOOKALIKE UNIC SRL"]);
    expect(r.body.data.find((i: { cui: number }) => i.cui === other.cui).judet).toBe("Cluj");
    expect(await found(c.denumire)).not.toContain(c.cui);
  }
});
