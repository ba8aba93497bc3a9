/**
 * The Excel rules of the stand-in (rules.ts), each against the page it copies. That the browser stand-in
 * is bundled from these sources is checked in bundle.test.ts.
 */
import { cellValueProblems, entityProblems, namingProblems, optionProblems, PAYLOAD_LIMIT_BYTES, utf8Bytes } from "./rules";

describe("naming (custom-functions-naming: start with a letter, at least three characters)", () => {
  test.each([
    ["AB", "AB"],
    ["1ABC", "ABC"],
    ["abc", "ABC"], // an id: only A–Z, 0–9, _ and .
    ["AB-C", "ABC"],
    ["ABC", "AB"],
    ["ABC", "A1C"], // a name: letters, _ and . only
    ["ABC", "_ABC"],
  ])("id %s, name %s does not load", (id, name) => {
    expect(namingProblems({ id, name })).not.toEqual([]);
  });

  test.each([
    ["ABC", "ABC"],
    ["CIFRA_AFACERI", "CIFRA_AFACERI"],
    ["TOP.LIST", "ÎNCĂ.UNA"],
    ["A12", "ȘTATE"],
  ])("id %s, name %s loads", (id, name) => {
    expect(namingProblems({ id, name })).toEqual([]);
  });

  test("CA loads only as the named exception", () => {
    expect(namingProblems({ id: "CA", name: "CA" })).toEqual([]);
    expect(namingProblems({ id: "CA", name: "CA" }, [])).toHaveLength(2);
    expect(namingProblems({ id: "CB", name: "CB" })).toHaveLength(2);
  });
});

describe("options (custom-functions-json: not both stream and cancelable; custom-functions-web-reqs: cancelable returns one value)", () => {
  test("stream and cancelable together are refused", () => {
    expect(optionProblems({ options: { stream: true, cancelable: true } })).toHaveLength(1);
  });
  test("a cancelable function that returns a matrix is refused; one that returns one value, or a matrix without cancelable, loads", () => {
    expect(optionProblems({ options: { cancelable: true }, result: { dimensionality: "matrix" } })).toEqual([
      expect.stringMatching(/only functions which return one value can be cancelable/),
    ]);
    expect(optionProblems({ options: { cancelable: true }, result: { dimensionality: "scalar" } })).toEqual([]);
    expect(optionProblems({ options: { cancelable: true } })).toEqual([]);
    expect(optionProblems({ options: {}, result: { dimensionality: "matrix" } })).toEqual([]);
  });
});

describe("entity values (excel-data-types-entity-card)", () => {
  const good = {
    type: "Entity",
    text: "ALFA SRL",
    properties: {
      Denumire: { type: "String", basicValue: "ALFA SRL" },
      CUI: { type: "Double", basicValue: 14399840 },
      Activ: { type: "Boolean", basicValue: true },
      Sigla: { type: "WebImage", address: "https://example.ro/a.png" },
    },
    layouts: {
      card: {
        title: { property: "Denumire" },
        mainImage: { property: "Sigla" },
        sections: [{ layout: "List", properties: ["CUI", "Activ"] }],
      },
    },
  };

  test("a card as the page shows it is accepted", () => {
    expect(entityProblems(good)).toEqual([]);
    expect(cellValueProblems(good)).toEqual([]);
  });

  test.each([
    ["no text", { ...good, text: undefined }, /no text/],
    ["a property without a type", { ...good, properties: { ...good.properties, X: { basicValue: 1 } } }, /X: no type/],
    ["a property without a basicValue", { ...good, properties: { ...good.properties, X: { type: "String" } } }, /X: no basicValue/],
    [
      "a property of an unknown type",
      { ...good, properties: { ...good.properties, X: { type: "Number", basicValue: 1 } } },
      /unknown type/,
    ],
    ["a Double that is text", { ...good, properties: { ...good.properties, X: { type: "Double", basicValue: "1" } } }, /must be a number/],
    [
      "a section naming a property that is not there",
      { ...good, layouts: { card: { sections: [{ layout: "List", properties: ["CUI", "Stare"] }] } } },
      /names Stare/,
    ],
    ["a title naming a property that is not there", { ...good, layouts: { card: { title: { property: "Nume" } } } }, /names Nume/],
    [
      "a nested entity without text",
      { ...good, properties: { ...good.properties, Sediu: { type: "Entity", properties: {} } } },
      /Sediu: no text/,
    ],
  ])("%s is refused", (_label, v, why) => {
    expect(entityProblems(v).join("\n")).toMatch(why);
  });

  test("an object of no cell value type is refused", () => {
    expect(cellValueProblems({ type: "Company" })).toEqual(["unknown type Company"]);
    expect(cellValueProblems({ basicValue: 1 })).toEqual(["not a cell value"]);
  });
});

describe("payload size (resource-limits: 5MB, in bytes)", () => {
  test("UTF-8 bytes, not UTF-16 code units", () => {
    expect(utf8Bytes("abc")).toBe(3);
    expect(utf8Bytes("ș")).toBe(2);
    expect(utf8Bytes("€")).toBe(3);
    expect(utf8Bytes("😀")).toBe(4);
    expect(utf8Bytes(JSON.stringify(["Țară"]))).toBe(Buffer.byteLength(JSON.stringify(["Țară"]), "utf8"));
  });
  test("5MB is read as 5,000,000 bytes", () => {
    expect(PAYLOAD_LIMIT_BYTES).toBe(5_000_000);
  });
});
