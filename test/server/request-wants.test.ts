/**
 * How the firm's server reads a /v4 request and writes its answer back (src/server/firm/request-wants.ts):
 * the add-in's own form of a batch (digits and commas, nothing encoded) is read by a short path that must
 * give the same wants, keys and refusals as URLSearchParams and the entry-by-entry rule give any other
 * form; an answer's bytes kept for one set of fields are never written for another, and never show in
 * the answer's JSON.
 */
import { parseRequest, render, wantKey, type Held, type Parsed, type Refusal } from "../../src/server/firm/request-wants";

const parsed = (path: string, query: string): Parsed => {
  const p = parseRequest(path, query);
  if (p === null || !("wants" in p)) throw new Error(`refused: ${JSON.stringify(p)}`);
  return p;
};
const refusal = (path: string, query: string): Refusal => {
  const p = parseRequest(path, query);
  if (p === null || "wants" in p) throw new Error(`not refused: ${JSON.stringify(p)}`);
  return p;
};
const shape = (p: Parsed) => ({ cuis: p.cuis, keys: p.wants.map(wantKey), fields: p.fields });

describe("reading a batch request", () => {
  it("reads the add-in's plain list as any encoded form of it: distinct CUIs, ascending, one key each", () => {
    const plain = parsed("/v4/firme/batch", "cui=30,4,1000,4,,17&include=caen_principal,adresa");
    expect(shape(plain)).toEqual({
      cuis: [4, 17, 30, 1000],
      keys: [
        "ident:4:adresa,caen_principal",
        "ident:17:adresa,caen_principal",
        "ident:30:adresa,caen_principal",
        "ident:1000:adresa,caen_principal",
      ],
      fields: ["adresa", "caen_principal"],
    });
    // commas encoded, a `+` in a value, a name repeated: URLSearchParams reads these
    expect(shape(parsed("/v4/firme/batch", "cui=30%2C4%2C1000,4,,17&include=caen_principal%2Cadresa"))).toEqual(shape(plain));
    expect(shape(parsed("/v4/firme/batch", "include=caen_principal,adresa&cui=RO30,+4,1000,4,17&cui=99"))).toEqual(shape(plain));
    // already ascending: the same wants as when sorted here
    expect(shape(parsed("/v4/firme/batch", "cui=4,17,30,1000&include=adresa,caen_principal"))).toEqual(shape(plain));
  });

  it("reads a query that begins with `?` (a URL with two) as URLSearchParams does: the first `?` dropped", () => {
    expect(shape(parsed("/v4/firme/batch", "?cui=8,7"))).toEqual(shape(parsed("/v4/firme/batch", "cui=7,8")));
    expect(parsed("/v4/firme/7/financiar", "?an=2023").wants.map(wantKey)).toEqual(["fin:7:2023"]);
  });

  it("keys the financial batch's wants by year, and reads a year written plainly or encoded alike", () => {
    const p = parsed("/v4/firme/batch/financiar", "cui=9,2&an=2023");
    expect(shape(p).keys).toEqual(["finb:2:2023", "finb:9:2023"]);
    expect(shape(parsed("/v4/firme/batch/financiar", "cui=9%2C2&an=%202023"))).toEqual(shape(p));
    const range = parsed("/v4/firme/batch/financiar", "an_de_la=2022&cui=5&an_pana=2023");
    expect(range.wants.map(wantKey)).toEqual(["finb:5:2023", "finb:5:2022"]);
  });

  it("refuses what the service refuses, at no credit, whichever path read it", () => {
    expect(refusal("/v4/firme/batch", "cui=,,")).toMatchObject({ status: 400, code: "bad_request", key: "custody.noCui" });
    expect(refusal("/v4/firme/batch", "include=adresa")).toMatchObject({ code: "bad_request", key: "custody.noCui" });
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    expect(refusal("/v4/firme/batch", `cui=${many}`)).toMatchObject({ code: "batch_too_large", params: { max: 100, count: 101 } });
    expect(refusal("/v4/firme/batch/financiar", `cui=${many.split(",").slice(0, 51).join(",")}&an=2023`)).toMatchObject({
      code: "batch_too_large",
      params: { max: 50, count: 51 },
    });
    // eleven digits: not a CUI (the plain path gives it to the entry-by-entry rule, which names it)
    expect(refusal("/v4/firme/batch", "cui=12,12345678901")).toMatchObject({ code: "invalid_cui", params: { value: "12345678901" } });
    expect(refusal("/v4/firme/batch", "cui=12,abc")).toMatchObject({ code: "invalid_cui", params: { value: "abc" } });
    expect(refusal("/v4/firme/batch/financiar", "cui=12&an=20x3")).toMatchObject({ code: "bad_request", key: "custody.badYear" });
  });
});

describe("writing answers back", () => {
  const body = { cui: 7, denumire: "Alfa SRL", stare: "activ", adresa: "Str. Lungă 1", caen_principal: "6201", judet: "Cluj" };

  it("writes each request's own fields from one held answer, however the requests alternate", () => {
    const held: Held = { body };
    const withAdresa = parsed("/v4/firme/batch", "cui=7&include=adresa");
    const withJudet = parsed("/v4/firme/batch", "cui=7&include=judet,caen_principal");
    for (let round = 0; round < 2; round++) {
      const a = render(withAdresa, [held]);
      const b = render(withJudet, [held]);
      if (!("text" in a) || !("text" in b)) throw new Error("refused");
      expect(JSON.parse(a.text.toString("utf8"))).toEqual([{ cui: 7, denumire: "Alfa SRL", stare: "activ", adresa: "Str. Lungă 1" }]);
      expect(JSON.parse(b.text.toString("utf8"))).toEqual([
        { cui: 7, denumire: "Alfa SRL", stare: "activ", caen_principal: "6201", judet: "Cluj" },
      ]);
    }
    // what is kept for the next request is not part of the answer
    expect(JSON.parse(JSON.stringify(held))).toEqual({ body });
    expect(Object.keys(held)).toEqual(["body"]);
  });

  it("writes a company's profile whole after a batch without `include` wrote it cut down, and the other way round", () => {
    const profile = parsed("/v4/firme/7", "");
    const bare = parsed("/v4/firme/batch", "cui=7");
    const text = (r: ReturnType<typeof render>) => {
      if (!("text" in r)) throw new Error("refused");
      return JSON.parse(r.text.toString("utf8")) as unknown;
    };
    const first: Held = { body };
    expect(text(render(bare, [first]))).toEqual([{ cui: 7, denumire: "Alfa SRL", stare: "activ" }]);
    expect(text(render(profile, [first]))).toEqual(body);
    const second: Held = { body };
    expect(text(render(profile, [second]))).toEqual(body);
    expect(text(render(bare, [second]))).toEqual([{ cui: 7, denumire: "Alfa SRL", stare: "activ" }]);
  });

  it("leaves out the wants with nothing, and answers 404 for a profile with nothing", () => {
    const p = parsed("/v4/firme/batch", "cui=7,8,9&include=adresa");
    const out = render(p, [{ body }, { body: null }, undefined]);
    if (!("text" in out)) throw new Error("refused");
    expect(JSON.parse(out.text.toString("utf8"))).toEqual([{ cui: 7, denumire: "Alfa SRL", stare: "activ", adresa: "Str. Lungă 1" }]);
    expect(render(parsed("/v4/firme/8", ""), [{ body: null }])).toMatchObject({ status: 404, code: "not_found" });
  });
});
