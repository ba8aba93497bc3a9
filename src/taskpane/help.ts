/**
 * The Help part of the pane: every FIRMA function with its parameters and an example. Names and
 * examples are the same in both languages; the descriptions are in the i18n table (`fn.<NAME>`).
 * test/pane/help.test.ts checks this list against the functions the add-in registers.
 */
import { t, type Lang, type TextKey } from "./i18n";

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
  { name: "TOPURI", params: ["[an]", "[categorie]", "[scop]"], example: '=FIRMA.TOPURI(2024, "cifra-afaceri", "judet")' },
  { name: "TOP", params: ["id_top", "[limita]"], example: '=FIRMA.TOP("top-cifra-afaceri-2024-judet-cj", 20)' },
  { name: "JUDETE", params: [], example: "=FIRMA.JUDETE()" },
];

/** "=FIRMA.CA(cui, [an])" */
export function syntaxOf(f: FunctionHelp): string {
  return `=FIRMA.${f.name}(${f.params.join(", ")})`;
}

/** Renders the list into `container` (replacing what was there). */
export function renderHelp(container: HTMLElement, lang: Lang): void {
  const doc = container.ownerDocument;
  container.textContent = "";
  const list = doc.createElement("dl");
  list.className = "help-list";
  for (const f of FUNCTION_HELP) {
    const dt = doc.createElement("dt");
    dt.id = `help-${f.name}`;
    const name = doc.createElement("code");
    name.textContent = `FIRMA.${f.name}`;
    dt.append(name);
    const dd = doc.createElement("dd");
    dd.dataset.fn = f.name;
    const desc = doc.createElement("p");
    desc.textContent = t(lang, `fn.${f.name}` as TextKey);
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
    dd.append(desc, line("help.syntax", syntaxOf(f), "help-syntax"), line("help.example", f.example, "help-example"));
    list.append(dt, dd);
  }
  container.append(list);
}
