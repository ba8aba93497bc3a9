/**
 * `firma match names.xlsx|names.csv --column B`: the engine's name matcher without Excel. The
 * options of the key, the address, the cache, the estimate and the budget are `firma refresh`'s
 * (cli-setup.ts); the run is match-run.ts. Exit codes (messages.ts EXIT): 0 every good name was
 * searched; 2 a stop left some unsearched (what was found is written); 1 nothing done.
 */
import type { Command } from "commander";
import { resolve } from "path";
import { t as msg, type Lang } from "../shared/messages/node";
import { serviceOptions, type Io } from "./cli-setup";
import { runMatch, type MatchFlags } from "./match-run";

/** Adds the `match` command to `program`, its words in `lang`; `done` receives the run's exit code. */
export function matchCommand(program: Command, lang: Lang, io: Io, done: (code: number) => void): Command {
  const h = (key: Parameters<typeof msg>[1]) => msg(lang, key);
  const command = program
    .command("match")
    .description(h("match.help.description"))
    .helpOption("-h, --help", h("cli.help.help"))
    .argument("<names.xlsx|names.csv>", h("match.help.file"))
    .option("--column <column>", h("match.help.column"))
    .option("--no-header", h("match.help.noHeader"))
    .option("--sheet <sheet>", h("match.help.sheet"))
    .option("--county-column <column>", h("match.help.countyColumn"))
    .option("--into <column>", h("match.help.into"))
    .option("--force", h("match.help.force"))
    .option("--out <file>", h("match.help.out"))
    .option("--csv <file>", h("match.help.csv"))
    .option("--json", h("match.help.json"));
  return serviceOptions(command, lang, "match.help.maxCredits")
    .addHelpText("after", `\n${h("match.help.examples")}\n\n${h("match.help.exitCodes")}`)
    .action(async (input: string, flags: MatchFlags) => {
      done(await runMatch(resolve(input), flags, io));
    });
}
