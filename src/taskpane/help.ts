/**
 * The Help part of the pane: every FIRMA function with its parameters and an example, in the pane's
 * language: the function and parameter names Excel shows in that language (the one table,
 * src/shared/function-names.ts), and the list separator of that language's Excel — ";" in Romanian, where
 * "," is the decimal separator, "," in English. The descriptions, the function's and each parameter's, are
 * that table's too: the words Excel shows.
 * test/taskpane/help.test.ts checks this list against the functions the add-in registers. A chunk of its
 * own, loaded when the Help section is first opened (pane.ts): not in the startup scripts.
 */
import { FUNCTION_TEXTS } from "../shared/function-names";
import { t, type Lang, type TextKey } from "./i18n";

export { keyPageUrl } from "./key-page";

export interface FunctionHelp {
  /** Without the FIRMA. namespace. */
  name: string;
  /** Parameter names as Excel shows them; optional ones in [brackets]. */
  params: string[];
  example: string;
}

/** The CUI the examples use (it exists in the service's sample data and in the sandbox). */
export const EXAMPLE_CUI = 14399840;

const PER_CUI = ["cui"];
const PER_CUI_YEAR = ["cui", "[an]"];

export const FUNCTION_HELP: readonly FunctionHelp[] = [
  { name: "DENUMIRE", params: PER_CUI, example: `=FIRMA.DENUMIRE(${EXAMPLE_CUI})` },
  { name: "STARE", params: PER_CUI, example: `=FIRMA.STARE("RO${EXAMPLE_CUI}")` },
  { name: "JUDET", params: PER_CUI, example: "=FIRMA.JUDET(A2)" },
  { name: "LOCALITATE", params: PER_CUI, example: "=FIRMA.LOCALITATE(A2)" },
  { name: "ADRESA", params: PER_CUI, example: "=FIRMA.ADRESA(A2)" },
  { name: "CAEN", params: PER_CUI, example: "=FIRMA.CAEN(A2:A50)" },
  { name: "TVA", params: PER_CUI, example: "=FIRMA.TVA(A2)" },
  { name: "NRREG", params: PER_CUI, example: "=FIRMA.NRREG(A2)" },
  { name: "CA", params: PER_CUI_YEAR, example: "=FIRMA.CA(A2)" },
  { name: "CIFRA_AFACERI", params: PER_CUI_YEAR, example: "=FIRMA.CIFRA_AFACERI(A2, 2024)" },
  { name: "PROFIT", params: PER_CUI_YEAR, example: "=FIRMA.PROFIT(A2, 2024)" },
  { name: "ACTIVE", params: PER_CUI_YEAR, example: "=FIRMA.ACTIVE(A2)" },
  { name: "DATORII", params: PER_CUI_YEAR, example: "=FIRMA.DATORII(A2)" },
  { name: "ANGAJATI", params: PER_CUI_YEAR, example: "=FIRMA.ANGAJATI(A2:A50)" },
  { name: "PROFIL", params: PER_CUI, example: "=FIRMA.PROFIL(A2:A10)" },
  { name: "CAMP", params: ["cui", "camp", "[an]"], example: '=FIRMA.CAMP(A2, "numar_angajati", 2023)' },
  { name: "FISA", params: ["cui"], example: "=FIRMA.FISA(A2)" },
  { name: "ACTUALIZAT", params: PER_CUI, example: "=FIRMA.ACTUALIZAT(A2)" },
  { name: "FINANCIAR", params: PER_CUI_YEAR, example: "=FIRMA.FINANCIAR(A2, 2024)" },
  { name: "ISTORIC", params: ["cui", "an_de_la", "an_pana", "[indicator]"], example: '=FIRMA.ISTORIC(A2, 2020, 2024, "profit_net")' },
  {
    name: "CAUTA",
    params: ["text", "[judet]", "[caen]", "[stare]", "[limita]"],
    example: '=FIRMA.CAUTA("construct", "CJ", , "ACTIVA", 50)',
  },
  { name: "CUI", params: ["nume", "[judet]"], example: '=FIRMA.CUI("Dedeman SRL", "BC")' },
  { name: "TOPURI", params: ["[an]", "[categorie]", "[scop]"], example: '=FIRMA.TOPURI(2024, "cifra-afaceri", "judet")' },
  { name: "TOP", params: ["id_top", "[limita]"], example: '=FIRMA.TOP("top-cifra-afaceri-2024-judet-cj", 20)' },
  { name: "JUDETE", params: [], example: "=FIRMA.JUDETE()" },
];

/** The argument separator a formula is typed with in Excel of that language. */
export function listSeparator(lang: Lang): string {
  return lang === "ro" ? ";" : ",";
}

/** Replaces the "," between arguments (not inside "text") with `sep`. */
function withSeparator(formula: string, sep: string): string {
  if (sep === ",") return formula;
  let out = "";
  let inText = false;
  for (const ch of formula) {
    if (ch === '"') inText = !inText;
    out += !inText && ch === "," ? sep : ch;
  }
  return out;
}

/** A function's help as Excel of language `lang` shows it: its name, parameters and example there. */
export function localized(f: FunctionHelp, lang: Lang): FunctionHelp {
  const texts = FUNCTION_TEXTS[f.name];
  if (!texts) return f;
  const name = texts.name[lang];
  const params = f.params.map((p) => {
    const optional = p.startsWith("[");
    const ro = p.replace(/[[\]]/g, "");
    const shown = texts.parameters.find((x) => x.name.ro === ro)?.name[lang] ?? ro;
    return optional ? `[${shown}]` : shown;
  });
  const example = withSeparator(f.example.replace(new RegExp(`^=FIRMA\\.${f.name}\\(`), `=FIRMA.${name}(`), listSeparator(lang));
  return { name, params, example };
}

/** "=FIRMA.CA(cui, [an])"; with `lang`, in that language's names and separator ("=FIRMA.CA(cui; [an])"). */
export function syntaxOf(f: FunctionHelp, lang?: Lang): string {
  if (!lang) return `=FIRMA.${f.name}(${f.params.join(", ")})`;
  const l = localized(f, lang);
  return `=FIRMA.${l.name}(${l.params.join(`${listSeparator(lang)} `)})`;
}

/** Renders the list into `container` (replacing what was there). */
export function renderHelp(container: HTMLElement, lang: Lang): void {
  const doc = container.ownerDocument;
  container.textContent = "";
  const list = doc.createElement("dl");
  list.className = "help-list";
  for (const f of FUNCTION_HELP) {
    const shown = localized(f, lang);
    const dt = doc.createElement("dt");
    dt.id = `help-${f.name}`;
    const name = doc.createElement("code");
    name.textContent = `FIRMA.${shown.name}`;
    dt.append(name);
    const dd = doc.createElement("dd");
    dd.dataset.fn = f.name;
    const desc = doc.createElement("p");
    desc.textContent = FUNCTION_TEXTS[f.name].description[lang];
    const line = (label: TextKey, code: string, cls: string) => {
      const p = doc.createElement("p");
      p.className = cls;
      const l = doc.createElement("span");
      l.className = "help-label";
      l.textContent = `${t(lang, label)}: `;
      const c = doc.createElement("code");
      c.textContent = code;
      p.append(l, c);
      return p;
    };
    dd.append(desc, line("help.syntax", syntaxOf(f, lang), "help-syntax"));
    // What each parameter takes (CAMP's field names, ISTORIC's default figure): the words Excel shows beside the argument.
    const described = FUNCTION_TEXTS[f.name].parameters.filter((p) => p.description[lang]);
    if (described.length > 0) {
      const params = doc.createElement("ul");
      params.className = "help-params";
      for (const p of described) {
        const li = doc.createElement("li");
        const c = doc.createElement("code");
        c.textContent = p.name[lang];
        li.append(c, ` ${p.description[lang]}`);
        params.append(li);
      }
      dd.append(params);
    }
    dd.append(line("help.example", shown.example, "help-example"));
    list.append(dt, dd);
  }
  container.append(list);
}
