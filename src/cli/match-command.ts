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
    .description(h("cli.match.help.description"))
    .helpOption("-h, --help", h("cli.help.help"))
    .argument("<names.xlsx|names.csv>", h("cli.match.help.file"))
    .option("--column <column>", h("cli.match.help.column"))
    .option("--no-header", h("cli.match.help.noHeader"))
    .option("--sheet <sheet>", h("cli.match.help.sheet"))
    .option("--county-column <column>", h("cli.match.help.countyColumn"))
    .option("--into <column>", h("cli.match.help.into"))
    .option("--force", h("cli.match.help.force"))
    .option("--out <file>", h("cli.match.help.out"))
    .option("--csv <file>", h("cli.match.help.csv"))
    .option("--json", h("cli.match.help.json"));
  return serviceOptions(command, lang, "cli.match.help.maxCredits")
    .addHelpText("after", `\n${h("cli.match.help.examples")}\n\n${h("cli.match.help.exitCodes")}`)
    .action(async (input: string, flags: MatchFlags) => {
      done(await runMatch(resolve(input), flags, io));
    });
}
