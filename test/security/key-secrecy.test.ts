/**
 * The API key never reaches the workbook, a URL, the console or an error message.
 * Through the BUILT functions bundle in the Excel runtime stand-in against the sandbox, and through
 * the client and the engine directly with a fetch that echoes the key back in every way it can.
 * Loads the functions bundle of the present sources (test/support/builds.js).
 */
import { FirmaClient } from "../../src/api";
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { read } from "../support/engine-reads";
import { ExcelStandIn, StandInError, StandInStorage } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

const KEY = "demo-enterprise-S3cr3tK3yZ9";
const SECRET = "S3cr3tK3yZ9"; // the part of the key no other text contains
const LATEST = data.LATEST_YEAR;
const CUIS = data.sampleCuis(120, 800_000);
const [CUI] = CUIS.filter((c) => data.financialYear(c, LATEST) !== null);
const SLUG = `top-cifra-afaceri-${LATEST}-national`;

let sb: Sandbox;
const consoleCalls: unknown[][] = [];
const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;
let restore: (() => void)[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  // Everything written to the console from here on, by the bundle, the engine or the client.
  restore = METHODS.map((m) => {
    const spy = jest.spyOn(console, m).mockImplementation((...args: unknown[]) => void consoleCalls.push(args));
    return () => spy.mockRestore();
  });
});
afterAll(async () => {
  for (const r of restore) r();
  await sb.close();
});
beforeEach(() => {
  sb.config.faults = {};
});

/** Everything reachable from a value, as text: own and inherited-enumerable fields, messages, stacks, causes. */
function everything(v: unknown, seen = new Set<unknown>()): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v !== "object" && typeof v !== "function") return String(v);
  if (seen.has(v)) return "";
  seen.add(v);
  const parts: string[] = [];
  if (v instanceof Error) parts.push(v.name, v.message, v.stack ?? "", everything((v as { cause?: unknown }).cause, seen));
  if (v instanceof StandInError) parts.push(v.code, v.message ?? "");
  for (const k of Object.getOwnPropertyNames(v)) {
    try {
      parts.push(k, everything((v as Record<string, unknown>)[k], seen));
    } catch {
      /* a getter that throws: nothing to read */
    }
  }
  try {
    parts.push(JSON.stringify(v) ?? "");
  } catch {
    /* circular */
  }
  return parts.join("\n");
}

function excel(key: string | null, baseUrl: string) {
  const storage = new StandInStorage();
  if (key !== null) storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", baseUrl);
  storage.data.set("firma.batchWindowMs", "5");
  return new ExcelStandIn(storage);
}

/** Every FIRMA function with valid arguments, and some with failing ones. */
const CALLS: [string, unknown[]][] = [
  ["DENUMIRE", [[[CUIS[0]], [CUIS[1]], [CUIS[2]]]]],
  ["STARE", [CUI]],
  ["JUDET", [CUI]],
  ["LOCALITATE", [CUI]],
  ["ADRESA", [CUI]],
  ["CAEN", [CUI]],
  ["TVA", [CUI]],
  ["NRREG", [CUI]],
  ["CA", [CUI, LATEST]],
  ["CIFRA_AFACERI", [CUI]],
  ["PROFIT", [CUI, LATEST]],
  ["ACTIVE", [CUI, LATEST]],
  ["DATORII", [CUI, LATEST]],
  ["ANGAJATI", [CUI, LATEST]],
  ["PROFIL", [CUI]],
  ["CAMP", [CUI, "adresa"]],
  ["FINANCIAR", [CUI, LATEST]],
  ["ISTORIC", [CUI, LATEST - 2, LATEST]],
  ["CAUTA", ["SRL", null, null, null, 5]],
  ["TOPURI", [LATEST]],
  ["TOP", [SLUG, 5]],
  ["JUDETE", []],
  ["DENUMIRE", [data.missingCuis(1)[0]]],
  ["DENUMIRE", [14399841]],
  ["TOP", ["top-nu-exista-2020"]],
];

async function callAll(xl: ExcelStandIn): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [fn, args] of CALLS) out.push(await xl.call(fn, args));
  return out;
}

describe("the key never leaves the X-API-Key header", () => {
  test("every call the service sees carries the key in the header and in no URL", async () => {
    const xl = excel(KEY, sb.url);
    await callAll(xl);
    const mine = sb.requests.filter((r) => r.key === KEY);
    expect(mine.length).toBeGreaterThanOrEqual(5); // batches ask every field at once: fewer calls than cells
    for (const r of sb.requests) expect(`${r.path}?${r.query}`).not.toContain(SECRET);
  });

  test("nothing the functions return to the workbook contains the key: values, spilled lists, error cells", async () => {
    const xl = excel(KEY, sb.url);
    const results = await callAll(xl);
    expect(results.some((r) => Array.isArray(r))).toBe(true);
    expect(results.some((r) => r instanceof StandInError)).toBe(true);
    expect(everything(results)).not.toContain(SECRET);
  });

  test("the add-in's storage holds the key only in its own entry: not in the cache, the meter or what was learned", async () => {
    const xl = excel(KEY, sb.url);
    await callAll(xl);
    await new Promise((r) => setTimeout(r, 800)); // the cache's and the meter's delayed writes
    const entries = [...xl.storage.data.entries()];
    expect(entries.map(([k]) => k)).toEqual(expect.arrayContaining(["firma.apiKey", "firma.c2.meta", "firma.meter.v1"]));
    for (const [k, v] of entries) if (k !== "firma.apiKey") expect(`${k}=${v}`).not.toContain(SECRET);
  });

  const failures: [string, () => { key: string; baseUrl: string }][] = [
    ["an invalid key (403)", () => ({ key: `not-a-key-${SECRET}`, baseUrl: sb.url })],
    ["5xx on every call", () => ((sb.config.faults = { errorRate: 1 }), { key: KEY, baseUrl: sb.url })],
    ["credits used up (429)", () => ((sb.config.faults = { rateLimitAfter: 0 }), { key: KEY, baseUrl: sb.url })],
    ["malformed answers", () => ((sb.config.faults = { malformedRate: 1 }), { key: KEY, baseUrl: sb.url })],
    ["connections reset", () => ((sb.config.faults = { resetRate: 1 }), { key: KEY, baseUrl: sb.url })],
    ["no service at the address", () => ({ key: KEY, baseUrl: "http://127.0.0.1:9" })],
    ["a key a header cannot carry", () => ({ key: `demo-enterprise-${SECRET}-ă`, baseUrl: sb.url })],
  ];
  test.each(failures)("error cells say what went wrong without the key: %s", async (_label, setup) => {
    const { key, baseUrl } = setup();
    const xl = excel(key, baseUrl);
    const results = await Promise.all([
      xl.call("DENUMIRE", [CUI]),
      xl.call("CA", [CUI, LATEST]),
      xl.call("DENUMIRE", [[[CUIS[3]], [CUIS[4]]]]),
      xl.call("CAUTA", ["SRL"]),
      xl.call("TOP", [SLUG]),
    ]);
    const lone = results[0] as StandInError;
    expect(lone).toBeInstanceOf(StandInError);
    expect(lone.message).toMatch(/panou|reîncercați|Actualizare/);
    expect(everything(results)).not.toContain(SECRET);
  });

  test("nothing written to the console contains the key", () => {
    expect(everything(consoleCalls)).not.toContain(SECRET);
  });
});

describe("thrown errors of the client and the engine never contain the key", () => {
  const url = "https://api.example.com";
  /** Fetches that give the key back: in a network error, in error bodies, in a broken body, in an answer. */
  const echoes: [string, typeof fetch][] = [
    [
      "a network error that quotes the request",
      async (input) => Promise.reject(new TypeError(`fetch failed for ${String(input)} with X-API-Key: ${KEY}`)),
    ],
    [
      "a 500 whose body repeats the key",
      async () => new Response(JSON.stringify({ error: { code: KEY, message: `internal error for key ${KEY}` } }), { status: 500 }),
    ],
    ["a 403 whose body repeats the key", async () => new Response(JSON.stringify({ message: `key ${KEY} is not valid` }), { status: 403 })],
    [
      "a 400 in plain text with the key",
      async () => new Response(`<html>bad request from ${KEY}</html>`, { status: 400, headers: { "Content-Type": "text/html" } }),
    ],
    ["a 429 with the key", async () => new Response(JSON.stringify({ error: `limit for ${KEY}` }), { status: 429 })],
    ["a 200 whose JSON is broken after the key", async () => new Response(`[{"cui": 1, "key": "${KEY}"`, { status: 200 })],
    ["a 200 of the wrong shape holding the key", async () => new Response(JSON.stringify({ surprise: KEY }), { status: 200 })],
  ];

  test.each(echoes)("client: %s", async (_label, echo) => {
    const client = new FirmaClient({ baseUrl: url, apiKey: KEY, fetch: echo, retries: 1, retryDelayMs: 1 });
    const e = await client.getCompany(CUI).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(Error);
    expect(everything(e)).not.toContain(SECRET);
    const batch = await client.batchIdentification([CUI]).then(
      () => null,
      (x: unknown) => x,
    );
    expect(everything(batch)).not.toContain(SECRET);
  });

  test.each(echoes)("engine: %s", async (_label, echo) => {
    const store = new MemoryStore();
    const engine = new FirmaEngine({ baseUrl: url, apiKey: () => KEY, store, fetch: echo, retries: 1, retryDelayMs: 1, windowMs: 1 });
    const got = await Promise.allSettled([
      read(() => engine.profileField(CUI, "denumire")),
      read(() => engine.financialField(CUI, LATEST, "cifra_afaceri")),
      engine.list({ fn: "counties" }),
    ]);
    for (const r of got) expect(r.status).toBe("rejected");
    expect(everything(got)).not.toContain(SECRET);
    expect(everything(engine.credits().usage())).not.toContain(SECRET);
    await engine.persist();
    expect(everything([...store.data.values()])).not.toContain(SECRET);
  });
});
