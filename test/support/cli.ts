/**
 * Runs `firma …` in the test's own process, as a person would at a terminal: src/cli/main.ts's `main`
 * with what it prints captured. The environment is `options.env` alone (by default empty: no FIRMA_*
 * and no LANG of the machine running the tests, so the words are Romanian unless a test asks).
 */
import { main, type Io } from "../../src/cli/main";

export interface FirmaOptions {
  /** The environment the command sees (default: none). */
  env?: Record<string, string>;
  /** Arguments put after the test's own, before --key and --base-url (e.g. --no-cache, --no-progress). */
  args?: string[];
  /** Passed as --key. */
  key?: string;
  /** Passed as --base-url. */
  baseUrl?: string;
}

export interface FirmaRun {
  /** The exit code. */
  code: number;
  /** What went to stdout. */
  out: string;
  /** What went to stderr. */
  err: string;
  /** Both, in the order they were written (what a terminal shows). */
  all: string;
}

export async function firma(args: string[], options: FirmaOptions = {}): Promise<FirmaRun> {
  let out = "";
  let err = "";
  let all = "";
  const io: Io = {
    stdout: { write: (s: string) => ((out += s), (all += s)) },
    stderr: { write: (s: string) => ((err += s), (all += s)) },
    env: options.env ?? {},
  };
  const argv = [...args, ...(options.args ?? [])];
  if (options.key !== undefined) argv.push("--key", options.key);
  if (options.baseUrl !== undefined) argv.push("--base-url", options.baseUrl);
  const code = await main(argv, io);
  return { code, out, err, all };
}
