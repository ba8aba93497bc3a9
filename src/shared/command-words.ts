/**
 * Commander's own words in the user's language: the help's headings (Usage:, Options:…) and the usage
 * line's placeholders ([options], [command]), what it adds
 * after an option (default, choices, env), and its errors (a missing argument, an unknown option or
 * command, too many arguments). Commander writes them in English only; `firma refresh`, `firma serve`,
 * `firma users` and `firma audit` speak Romanian first, so each applies `commandWords(lang)` to its
 * program (configureHelp and configureOutput are inherited by the commands made after them).
 * English leaves commander's text as it is.
 */
import type { Help, Option, OutputConfiguration } from "commander";
import type { Lang } from "./messages";

const TITLES_RO: Record<string, string> = {
  "Usage:": "Utilizare:",
  "Options:": "Opțiuni:",
  "Commands:": "Comenzi:",
  "Arguments:": "Argumente:",
  "Global Options:": "Opțiuni generale:",
};

/** Commander's error lines (command.js), as patterns, and their Romanian. */
const ERRORS_RO: [RegExp, (...m: string[]) => string][] = [
  [/^error: missing required argument '(.+)'$/, (a) => `eroare: lipsește argumentul obligatoriu „${a}”`],
  [/^error: option '(.+)' argument missing$/, (o) => `eroare: opțiunea „${o}” cere o valoare`],
  [/^error: required option '(.+)' not specified$/, (o) => `eroare: opțiunea obligatorie „${o}” lipsește`],
  [/^error: unknown option '(.+?)'$/, (o) => `eroare: opțiune necunoscută „${o}”`],
  [/^error: unknown command '(.+?)'$/, (c) => `eroare: comandă necunoscută „${c}”`],
  [/^error: too many arguments.*$/, () => "eroare: prea multe argumente"],
  [
    /^error: option '(.+)' argument '(.+)' is invalid\. Allowed choices are (.+)\.$/,
    (o, v, c) => `eroare: „${v}” nu e o valoare a opțiunii „${o}”; valori permise: ${c}.`,
  ],
  [
    /^error: option '(.+)' argument '(.+)' is invalid\. (.+)$/,
    (o, v, why) => `eroare: valoarea „${v}” a opțiunii „${o}” nu e bună: ${why}`,
  ],
  [/^\(Did you mean one of (.+)\?\)$/, (s) => `(Poate ați vrut una dintre ${s}?)`],
  [/^\(Did you mean (.+)\?\)$/, (s) => `(Poate ați vrut ${s}?)`],
];

/** One line of commander's error output in Romanian (a line it does not know stays as it is). */
export function errorLineRo(line: string): string {
  for (const [re, say] of ERRORS_RO) {
    const m = re.exec(line);
    if (m) return say(...m.slice(1));
  }
  return line;
}

/** What an option's help adds after its description (choices, default, env), in Romanian. */
function optionExtrasRo(option: Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`valori: ${option.argChoices.map((c) => JSON.stringify(c)).join(", ")}`);
  const showDefault = option.required || option.optional || (option.isBoolean() && typeof option.defaultValue === "boolean");
  if (option.defaultValue !== undefined && showDefault)
    extra.push(`implicit: ${option.defaultValueDescription ?? JSON.stringify(option.defaultValue)}`);
  if (option.envVar !== undefined) extra.push(`variabila de mediu: ${option.envVar}`);
  return extra.length > 0 ? `${option.description ? `${option.description} ` : ""}(${extra.join(", ")})` : option.description;
}

/** The help and output settings that put commander's words in `lang`, with `output`'s writers. */
export function commandWords(
  lang: Lang,
  output: Pick<OutputConfiguration, "writeOut" | "writeErr">,
): { help: Partial<Help>; output: OutputConfiguration } {
  if (lang !== "ro") return { help: {}, output };
  return {
    help: {
      styleTitle: (s: string) => TITLES_RO[s] ?? s,
      // the placeholders of the usage line and of the commands' list (the same length: the columns hold)
      styleOptionText: (s: string) => (s === "[options]" ? "[opțiuni]" : s),
      styleSubcommandText: (s: string) => (s === "[command]" ? "[comandă]" : s),
      styleArgumentText: (s: string) => (s === "[command]" ? "[comandă]" : s), // help [command]
      optionDescription: optionExtrasRo,
    },
    output: {
      ...output,
      outputError: (s: string, write: (t: string) => void) => write(s.split("\n").map(errorLineRo).join("\n")),
    },
  };
}
