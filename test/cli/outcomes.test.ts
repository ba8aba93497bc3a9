/**
 * Outcomes that tell the truth. `firma refresh` against a service that is down, refuses
 * the key, has no credits left or stops mid-run never replaces a good value; the exit code says
 * ok (0), partial (2) or nothing done (1); an output that cannot be written is found before a credit
 * is spent; --json prints the same summary for scripts; the words follow LANG.
 */
import { spawn } from "child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { buildWorkbook, BuildCell } from "../fixtures/build-workbook";
import * as cli from "../support/cli";
import { errorLineRo } from "../../src/shared/command-words";
import { Workbook } from "../../src/shared/xlsx/workbook";
import * as data from "../../sandbox/dataset";
import { startSandbox, Sandbox } from "../../sandbox/server";

let sb: Sandbox;
let dir: string;
let n = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-outcomes-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  sb.config.faults = {};
  sb.config.latencyMs = 0;
});

const CUIS = data.sampleCuis(300, 700_000);

/** 300 rows of DENUMIRE and CA whose saved values are good, earlier answers ("OLD …", 1). */
function book(): string {
  const rows: BuildCell[][] = [["CUI", "Denumire", "CA"]];
  CUIS.forEach((c, i) =>
    rows.push([c, { formula: `=FIRMA.DENUMIRE(A${i + 2})`, cached: `OLD ${c}` }, { formula: `=FIRMA.CA(A${i + 2})`, cached: 1 }]),
  );
  const f = join(dir, `book${++n}.xlsx`);
  writeFileSync(f, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
  return f;
}

/** `firma …` without a cache or the progress bar, in the environment `env`. */
const firma = (args: string[], env: Record<string, string> = {}) => cli.firma(args, { env, args: ["--no-cache", "--no-progress"] });

const values = (file: string) => {
  const wb = Workbook.open(readFileSync(file));
  return CUIS.map((_, i) => [wb.getValue("Firme", `B${i + 2}`), wb.getValue("Firme", `C${i + 2}`)]);
};

test("service unreachable, --in-place: nothing done (1), the workbook's bytes untouched, the cause in words", async () => {
  const f = book();
  const before = readFileSync(f);
  const r = await firma(["refresh", f, "--in-place", "--key", "demo-pro", "--base-url", "http://127.0.0.1:9"]);
  expect(r.code).toBe(1);
  expect(Buffer.compare(readFileSync(f), before)).toBe(0);
  expect(r.out + r.err).toMatch(/serviciul nu poate fi contactat; verificați --base-url/);
  expect(r.out + r.err).not.toMatch(/panou/);
});

test.each([
  ["an invalid key", "not-a-key", {}, /cheia API a fost refuzată/],
  ["credits spent", "demo-pro-spent", { rateLimitAfter: 0 }, /creditele planului s-au epuizat/],
])("%s: nothing done (1), no file written, values kept", async (_n, key, faults, said) => {
  sb.config.faults = faults;
  const f = book();
  const out = join(dir, `out${++n}.xlsx`);
  const r = await firma(["refresh", f, "--key", key, "--base-url", sb.url, "--out", out]);
  expect(r.code).toBe(1);
  expect(existsSync(out)).toBe(false);
  expect(r.out + r.err).toMatch(said);
});

test("the service stops answering mid-run: partial (2); refreshed cells have the new values, the others keep theirs exactly", async () => {
  sb.config.faults = { rateLimitAfter: 2 };
  const f = book();
  const out = join(dir, `out${++n}.xlsx`);
  const r = await firma(["refresh", f, "--key", `demo-enterprise-mid${n}`, "--base-url", sb.url, "--out", out]);
  expect(r.code).toBe(2);
  const got = values(out);
  let fresh = 0;
  let kept = 0;
  got.forEach(([name, ca], i) => {
    if (name === `OLD ${CUIS[i]}`) kept++;
    else {
      expect(name).toBe(data.company(CUIS[i])!.denumire);
      fresh++;
    }
    if (ca !== 1) expect(ca).toBe(data.financialYear(CUIS[i], data.LATEST_YEAR)?.cifra_afaceri ?? ca);
  });
  expect(fresh).toBeGreaterThan(0);
  expect(kept).toBeGreaterThan(0);
  expect(r.out).toMatch(/și-au păstrat valoarea anterioară/);
});

test.each([
  ["a folder that does not exist", () => join(dir, "nope", "out.xlsx"), /nu există/],
  ["a path through a file", () => join(book(), "out.xlsx"), /nu este un dosar/],
  ["a folder", () => dir, /este un dosar/],
])("output to %s: refused before any call, in words", async (_n, target, said) => {
  const key = `demo-enterprise-out${++n}`;
  const r = await firma(["refresh", book(), "--key", key, "--base-url", sb.url, "--out", target()]);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(said);
  expect(r.err).toMatch(/nu s-a cheltuit nimic/);
  expect(sb.requests.filter((q) => q.key === key)).toHaveLength(0);
});

test.each([
  ["a .xls (old binary) file", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Array(504).fill(0)]), ""],
  [
    "a password-protected workbook (an encrypted OLE container)",
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Array(1016).fill(0)]),
    "",
  ],
  ["an .ods (OpenDocument) file", null, "ods"],
  ["a folder", null, ""],
])("input %s: one clear line, nothing done, nothing spent", async (_n, bytes, kind) => {
  if (kind === "ods") {
    const { zipSync, strToU8 } = await import("fflate");
    const f = join(dir, `in${++n}.ods`);
    writeFileSync(
      f,
      zipSync({
        mimetype: strToU8("application/vnd.oasis.opendocument.spreadsheet"),
        "content.xml": strToU8("<office:document-content/>"),
      }),
    );
    const key = `demo-enterprise-in${n}`;
    const r = await firma(["refresh", f, "--key", key, "--base-url", sb.url]);
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(sb.requests.filter((q) => q.key === key)).toHaveLength(0);
    return;
  }
  const f = bytes ? join(dir, `in${++n}.xls`) : join(dir, `folder${++n}`);
  if (bytes) writeFileSync(f, bytes);
  else mkdirSync(f);
  const key = `demo-enterprise-in${n}`;
  const r = await firma(["refresh", f, "--key", key, "--base-url", sb.url]);
  expect(r.code).toBe(1);
  expect(r.err.trim().split("\n")).toHaveLength(1);
  expect(sb.requests.filter((q) => q.key === key)).toHaveLength(0);
});

test("an unknown option names itself and the closest valid one; --help shows examples and the exit codes", async () => {
  const r = await firma(["refresh", "x.xlsx", "--max-credit", "3"]);
  expect(r.code).toBe(1);
  // commander's own words in the user's language (Romanian here: no LANG)
  expect(r.err).toMatch(/eroare: opțiune necunoscută „--max-credit”/);
  expect(r.err).toMatch(/Poate ați vrut --max-credits\?/);
  expect((await firma(["refresh", "x.xlsx", "--max-credit", "3", "--lang", "en"])).err).toMatch(
    /error: unknown option '--max-credit'\n\(Did you mean --max-credits\?\)/,
  );
  expect((await firma(["refresh"])).err).toMatch(/eroare: lipsește argumentul obligatoriu „book\.xlsx”/);
  // commander's suggestion of several names, and a line it does not know, which stays as it is
  expect(errorLineRo("(Did you mean one of --csv, --changes?)")).toBe("(Poate ați vrut una dintre --csv, --changes?)");
  expect(errorLineRo("something else")).toBe("something else");
  const help = (await cli.firma(["refresh", "--help"])).all;
  expect(help).toMatch(/firma refresh registru\.xlsx --dry-run/);
  expect(help).toMatch(/0 +toate celulele FIRMA au fost actualizate/);
  expect(help).toMatch(/2 +parțial/);
  expect(help).toMatch(/1 +nimic făcut/);
  expect(help).toMatch(/--changes <file> +scrie ca CSV ce s-a schimbat/);
  expect(help).not.toMatch(/every FIRMA cell|refresh the values/); // one language, not both
  expect(help).toMatch(/^Utilizare: firma refresh \[opțiuni\] <book\.xlsx>$/m);
  expect(help).toMatch(/^Opțiuni:$/m);
  expect(help).toMatch(/--lang <lang> +limba mesajelor \(implicit: după LANG\) \(valori: "ro", "en"\)/);
  expect(help).not.toMatch(/Usage:|Options:|choices:|\[options\]/);

  // in English after LANG, or after --lang wherever it stands
  const helpIn = async (argv: string[], env: Record<string, string>) => (await cli.firma(argv, { env })).all;
  for (const english of [
    await helpIn(["refresh", "--help"], { LANG: "en_GB.UTF-8" }),
    await helpIn(["refresh", "--lang", "en", "--help"], {}),
  ]) {
    expect(english).toMatch(/0 +every FIRMA cell was refreshed/);
    expect(english).toMatch(/--dry-run +only estimate the cost/);
    expect(english).toMatch(/firma refresh book\.xlsx --dry-run/);
    expect(english).not.toMatch(/toate celulele|actualizează/);
  }
  expect(await helpIn(["refresh", "--lang=ro", "--help"], { LANG: "en_US" })).toMatch(/0 +toate celulele FIRMA/);
  const top = await helpIn(["--help"], { LANG: "en_US" });
  expect(top).toMatch(/FIRMA: Romanian company data in Excel workbooks/);
  // the commands bin/firma.js sends to the firm's server are listed too, with their own help
  for (const c of ["serve", "users", "audit"]) expect(top).toMatch(new RegExp(`firma ${c} .*\\S`));
  expect(await helpIn(["--help"], {})).toMatch(/Alte comenzi \(fiecare cu --help\):\n +firma serve/);

  // a bad number is refused in the user's language
  const bad = await firma(["refresh", "x.xlsx", "--max-credits", "-3", "--lang", "en"]);
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/a whole number ≥ 0/);
  expect(bad.err).not.toMatch(/număr întreg/);
});

test("--json prints one object with the estimate, the spend and the cells by outcome; LANG=en speaks English with separators", async () => {
  const f = book();
  const key = `demo-enterprise-json${++n}`;
  const r = await firma(["refresh", f, "--key", key, "--base-url", sb.url, "--out", join(dir, `j${n}.xlsx`), "--json"], {
    LANG: "en_GB.UTF-8",
  });
  expect(r.code).toBe(0);
  const j = JSON.parse(r.out);
  expect(j).toMatchObject({ outcome: "ok", exitCode: 0, creditsSpent: sb.usage(key).total, formulas: 600 });
  expect(j.cells.refreshed + Object.values(j.cells.errors as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(600);
  expect(j.estimate.credits).toBeGreaterThanOrEqual(j.creditsSpent);
  expect(r.err).toMatch(/refreshed: \d{3} cells with values/);
  expect(r.err).toMatch(/Done: every cell was refreshed/);
});

test("a process killed during --in-place leaves the original workbook whole", async () => {
  const f = book();
  const before = readFileSync(f);
  sb.config.latencyMs = 400;
  const bin = resolve(__dirname, "..", "..", "bin", "firma.js");
  const child = spawn(
    process.execPath,
    [bin, "refresh", f, "--in-place", "--key", `demo-enterprise-kill${++n}`, "--base-url", sb.url, "--no-cache"],
    {
      stdio: "ignore",
    },
  );
  // Killed once the run is under way (it has sent its first calls).
  const deadline = Date.now() + 20_000;
  while (!sb.requests.some((q) => q.key === `demo-enterprise-kill${n}`) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  expect(Buffer.compare(readFileSync(f), before)).toBe(0);
  expect(Workbook.open(readFileSync(f)).getValue("Firme", "B2")).toBe(`OLD ${CUIS[0]}`);
}, 30_000);

describe("freshness", () => {
  const cached = async (args: string[]) => {
    const { code, all } = await cli.firma(args, { args: ["--no-progress", "--json"] });
    return { code, json: JSON.parse(all.slice(all.indexOf("{"))) as { creditsSpent: number; estimate: { credits: number } } };
  };

  test("a second run is free; --max-age 0 and --force fetch again, after showing what that costs", async () => {
    const f = book();
    const cacheDir = join(dir, `cache${++n}`);
    const key = `demo-enterprise-fresh${n}`;
    const base = ["refresh", f, "--key", key, "--base-url", sb.url, "--cache-dir", cacheDir, "--out", join(dir, `fresh${n}.xlsx`)];
    const first = await cached(base);
    expect(first.json.creditsSpent).toBeGreaterThan(0);
    const second = await cached(base);
    expect(second.json).toMatchObject({ creditsSpent: 0, estimate: { credits: 0 } });
    const aged = await cached([...base, "--max-age", "0"]);
    expect(aged.json.creditsSpent).toBe(first.json.creditsSpent);
    expect(aged.json.estimate.credits).toBeGreaterThanOrEqual(aged.json.creditsSpent);
    const forced = await cached([...base, "--force"]);
    expect(forced.json.creditsSpent).toBe(first.json.creditsSpent);
    expect(sb.usage(key).total).toBe(3 * first.json.creditsSpent);
  });

  test("FIRMA.ACTUALIZAT gives the fetch date as an Excel date, in the sheet", async () => {
    const rows: BuildCell[][] = [
      ["CUI", "Actualizat"],
      [CUIS[0], { formula: "=FIRMA.ACTUALIZAT(A2)", cached: 0 }],
    ];
    const f = join(dir, `date${++n}.xlsx`);
    writeFileSync(f, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
    const out = join(dir, `date${n}.out.xlsx`);
    const before = Date.now();
    const r = await firma(["refresh", f, "--key", `demo-enterprise-date${n}`, "--base-url", sb.url, "--out", out]);
    expect(r.code).toBe(0);
    const serial = Workbook.open(readFileSync(out)).getValue("Firme", "B2") as number;
    // Excel's serial for now, in Bucharest time (UTC+2 in winter, +3 in summer): within a few hours of UTC's
    const utcSerial = before / 86_400_000 + 25_569;
    expect(serial).toBeGreaterThan(utcSerial);
    expect(serial - utcSerial).toBeLessThan(3.1 / 24);
  });
});

test("help read by a program that stops early (firma --help | head): no stack trace, exit 0", async () => {
  const { spawn } = await import("child_process");
  const child = spawn(process.execPath, [join(__dirname, "..", "..", "bin", "firma.js"), "refresh", "--help"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy(); // the reader is gone before the first line
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d));
  const code = await new Promise<number | null>((r) => child.on("close", r));
  expect(err).not.toMatch(/EPIPE|at Object/);
  expect(code).toBe(0);
});
