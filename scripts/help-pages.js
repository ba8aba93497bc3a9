/**
 * The add-in's help pages, one per language (ajutor.html in Romanian, help.html in English), built
 * beside the functions' metadata by scripts/localize-functions.js from the same table
 * (src/shared/function-names.ts) and the generated metadata (which parameters are optional):
 *
 * - a section per function, its anchor the function's `id` (`#DENUMIRE`): name, what it gives, its
 *   syntax in that language's Excel (";" between arguments in Romanian, "," in English) and each
 *   parameter. Each function's `helpUrl` in functions.json / functions-en.json is `<page>#<id>`
 *   (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json: `helpUrl`, "URL that
 *   provides information about the function. (It is displayed in a task pane.)"), which AppSource
 *   asks of every custom function (certification policy 1120.5.1: docs/excel.md).
 * - `#cheie`: how to get an API key, with the link FIRMA_KEY_URL names when the build has one.
 *
 * Static HTML with no script (the functions' texts are the table's, escaped): it is served from the
 * add-in's address like the other files of dist/, by `firma serve` too.
 */
"use strict";

const TEXTS = {
  ro: {
    title: "FIRMA — ajutor pentru funcții",
    intro:
      "Funcțiile FIRMA aduc în celule datele firmelor din România, după codul fiscal (CUI). Fiecare apel la serviciu costă un credit; o recalculare sau redeschiderea registrului nu costă nimic.",
    syntax: "Sintaxă",
    params: "Argumente",
    optional: "opțional",
    none: "Fără argumente.",
    keyHeading: "Cum obțineți o cheie API",
    keyText:
      "FIRMA cere serviciului datele cu cheia dumneavoastră API. Cheia se generează în contul dumneavoastră de la serviciu, după înregistrare; apoi o lipiți în panoul FIRMA, la „Cheia API”, și apăsați Salvează. Într-o firmă care folosește un server FIRMA, cheia stă pe server: cereți administratorului un token personal.",
    keyLink: "Creați un cont și obțineți o cheie",
    other: "English",
  },
  en: {
    title: "FIRMA — help for the functions",
    intro:
      "FIRMA's functions fill cells with data about Romanian companies, by tax id (CUI). Every call to the service costs one credit; recalculating or reopening a workbook costs nothing.",
    syntax: "Syntax",
    params: "Arguments",
    optional: "optional",
    none: "No arguments.",
    keyHeading: "How to get an API key",
    keyText:
      "FIRMA asks the service for the data with your API key. The key is generated in your account with the service, after you register; then paste it in the FIRMA pane, under “API key”, and press Save. In a firm that runs a FIRMA server, the key stays on the server: ask its administrator for a personal token.",
    keyLink: "Create an account and get a key",
    other: "Română",
  },
};

/** The anchor of the section on getting a key, in both pages (the pane's link without FIRMA_KEY_URL). */
const KEY_ANCHOR = "cheie";

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/**
 * One language's help page. `generated`: the generator's metadata (ids, parameters, optional);
 * `table`: FUNCTION_TEXTS; `pages`: { ro, en } file names (deployment.js HELP_PAGES); `keyUrl`: the
 * service's page for a key, or "" (none configured: the section says where, without a link).
 */
function helpPage(generated, table, lang, pages, keyUrl) {
  const w = TEXTS[lang];
  const sep = lang === "ro" ? "; " : ", ";
  const sections = generated.functions.map((f) => {
    const t = table[f.id];
    const params = f.parameters.map((p, i) => ({
      name: t.parameters[i].name[lang],
      text: t.parameters[i].description[lang],
      optional: !!p.optional,
    }));
    const syntax = `=FIRMA.${t.name[lang]}(${params.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(sep)})`;
    const list =
      params.length === 0
        ? `<p>${escapeHtml(w.none)}</p>`
        : `<dl>${params
            .map(
              (p) =>
                `<dt><code>${escapeHtml(p.name)}</code>${p.optional ? ` (${escapeHtml(w.optional)})` : ""}</dt><dd>${escapeHtml(p.text)}</dd>`,
            )
            .join("")}</dl>`;
    return [
      `<section id="${escapeHtml(f.id)}" aria-labelledby="${escapeHtml(f.id)}-h">`,
      `<h2 id="${escapeHtml(f.id)}-h">FIRMA.${escapeHtml(t.name[lang])}</h2>`,
      `<p>${escapeHtml(t.description[lang])}</p>`,
      `<h3>${escapeHtml(w.syntax)}</h3><p><code>${escapeHtml(syntax)}</code></p>`,
      `<h3>${escapeHtml(w.params)}</h3>${list}`,
      `</section>`,
    ].join("\n");
  });
  const other = lang === "ro" ? "en" : "ro";
  const keyLink = keyUrl ? `<p><a href="${escapeHtml(keyUrl)}" rel="noopener noreferrer">${escapeHtml(w.keyLink)}</a></p>` : "";
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(w.title)}</title>
<style>body{font-family:"Segoe UI",system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:1rem;line-height:1.5}code{font-size:1rem}section{border-top:1px solid #ccc}:target{outline:2px solid #0f6cbd;outline-offset:4px}</style>
</head>
<body>
<main>
<h1>${escapeHtml(w.title)}</h1>
<p><a href="${escapeHtml(pages[other])}" hreflang="${other}" lang="${other}">${escapeHtml(w.other)}</a></p>
<p>${escapeHtml(w.intro)}</p>
<section id="${KEY_ANCHOR}" aria-labelledby="${KEY_ANCHOR}-h">
<h2 id="${KEY_ANCHOR}-h">${escapeHtml(w.keyHeading)}</h2>
<p>${escapeHtml(w.keyText)}</p>
${keyLink}
</section>
${sections.join("\n")}
</main>
</body>
</html>
`;
}

module.exports = { helpPage, KEY_ANCHOR };
