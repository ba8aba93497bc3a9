/**
 * The key is never sent in clear over the network: a plain http:// base URL is refused
 * unless it is loopback (the local sandbox), by the client, by the engine and by the functions,
 * before any call; https:// and http://127.0.0.1 work.
 */
import { FirmaClient } from "../../src/api";
import { FirmaEngine } from "../../src/engine/engine";
import { LocalInputError } from "../../src/engine/local-errors";
import { MemoryStore } from "../../src/engine/cache/store";
import { read } from "../support/engine-reads";
import { ExcelStandIn, StandInError, StandInStorage } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

const KEY = "demo-enterprise-baseurl";
const [CUI] = data.sampleCuis(1, 810_000);
const company = data.company(CUI)!;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

const HTTPS = /an https address/;
const CLEAN = /without credentials, query or fragment/;
const ABSOLUTE = /an absolute URL|the service's address/;
/** Refused base URLs and the reason the error gives. */
const REFUSED: [string, RegExp][] = [
  ["http://api.example.com", HTTPS],
  ["HTTP://API.EXAMPLE.COM/v4", HTTPS],
  ["http://127.0.0.1.evil.example", HTTPS],
  ["http://localhost.evil.example:3001", HTTPS],
  ["http://10.0.0.5:3001", HTTPS],
  ["http://192.168.1.10", HTTPS],
  ["http://0.0.0.0:3001", HTTPS],
  ["http://[::ffff:8.8.8.8]", HTTPS],
  ["ftp://127.0.0.1", HTTPS],
  ["ws://api.example.com", HTTPS],
  ["http://user:S3cr3tPw@127.0.0.1:3001", CLEAN],
  ["https://api.example.com/?key=S3cr3tPw", CLEAN],
  ["https://api.example.com/#S3cr3tPw", CLEAN],
  ["//api.example.com", ABSOLUTE],
  ["api.example.com?key=S3cr3tPw", ABSOLUTE],
  ["", ABSOLUTE],
];
const ACCEPTED = [
  "https://api.example.com",
  "https://api.example.com/v4/",
  "http://127.0.0.1:3001",
  "http://127.1.2.3",
  "http://localhost:3001",
  "http://[::1]:3001",
];

/** A fetch that answers batch identification for CUI, and records what it was asked. */
function fakeService() {
  const urls: string[] = [];
  const fetchImpl = jest.fn(async (input: RequestInfo | URL) => {
    urls.push(String(input));
    return new Response(JSON.stringify([{ cui: CUI, denumire: company.denumire, stare: company.stare }]), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  });
  return { urls, fetch: fetchImpl as unknown as typeof fetch, calls: () => fetchImpl.mock.calls.length };
}

describe("the client", () => {
  test.each(REFUSED)("refuses %j as its base URL, saying why, without what may be secret in it", (baseUrl, reason) => {
    expect(() => new FirmaClient({ baseUrl, apiKey: KEY })).toThrow(TypeError);
    expect(() => new FirmaClient({ baseUrl, apiKey: KEY })).toThrow(reason);
    expect(() => new FirmaClient({ baseUrl, apiKey: KEY })).not.toThrow(/S3cr3tPw/);
  });

  test.each(ACCEPTED)("accepts %j", (baseUrl) => {
    expect(() => new FirmaClient({ baseUrl, apiKey: KEY })).not.toThrow();
  });

  test("calls an https service with the key in the header only", async () => {
    const svc = fakeService();
    const client = new FirmaClient({ baseUrl: "https://api.example.com", apiKey: KEY, fetch: svc.fetch });
    const items = await client.batchIdentification([CUI]);
    expect(items[0].denumire).toBe(company.denumire);
    expect(svc.urls).toEqual([`https://api.example.com/v4/firme/batch?cui=${CUI}`]);
  });
});

describe("the engine", () => {
  test.each(REFUSED.filter(([u]) => u !== ""))("with %j every request fails locally and nothing is sent", async (baseUrl, reason) => {
    const svc = fakeService();
    const engine = new FirmaEngine({ baseUrl, apiKey: () => KEY, store: new MemoryStore(), fetch: svc.fetch, windowMs: 1 });
    const got = await Promise.allSettled([
      read(() => engine.profileField(CUI, "denumire")),
      read(() => engine.financialField(CUI, null, "profit_net")),
      engine.list({ fn: "counties" }),
    ]);
    for (const r of got) {
      expect(r.status).toBe("rejected");
      const e = (r as PromiseRejectedResult).reason;
      expect(e).toBeInstanceOf(LocalInputError);
      expect(e).toMatchObject({ kind: "invalid_base_url", message: expect.stringMatching(reason) });
      expect(e.message).not.toContain("S3cr3tPw");
    }
    expect(svc.calls()).toBe(0);
  });

  test("works over https", async () => {
    const svc = fakeService();
    const engine = new FirmaEngine({
      baseUrl: "https://api.example.com",
      apiKey: () => KEY,
      store: new MemoryStore(),
      fetch: svc.fetch,
      windowMs: 1,
    });
    expect(await read(() => engine.profileField(CUI, "denumire"))).toBe(company.denumire);
    expect(svc.urls.every((u) => u.startsWith("https://api.example.com/v4/"))).toBe(true);
  });

  test("works over http on loopback (the sandbox)", async () => {
    const engine = new FirmaEngine({ baseUrl: sb.url, apiKey: () => KEY, store: new MemoryStore(), windowMs: 1 });
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(await read(() => engine.profileField(CUI, "denumire"))).toBe(company.denumire);
  });

  test("a base URL changed to a refused one stops the calls; changed back, they work again", async () => {
    let baseUrl = sb.url;
    const engine = new FirmaEngine({ baseUrl: () => baseUrl, apiKey: () => KEY, store: new MemoryStore(), windowMs: 1 });
    const [a, b] = data.sampleCuis(2, 811_000);
    baseUrl = "http://api.example.com";
    await expect(read(() => engine.profileField(a, "denumire"))).rejects.toMatchObject({ kind: "invalid_base_url" });
    baseUrl = sb.url;
    expect(await read(() => engine.profileField(b, "denumire"))).toBe(data.company(b)!.denumire);
  });
});

describe("the functions (built bundle in the Excel runtime stand-in)", () => {
  function excel(baseUrl: string) {
    const storage = new StandInStorage();
    storage.data.set("firma.apiKey", KEY);
    storage.data.set("firma.baseUrl", baseUrl);
    storage.data.set("firma.batchWindowMs", "1");
    return new ExcelStandIn(storage);
  }

  test("with a plain http address off loopback, the cell says to use https and nothing is fetched", async () => {
    const spy = jest.spyOn(globalThis, "fetch");
    try {
      const xl = excel("http://api.example.com");
      const e = (await xl.call("DENUMIRE", [CUI])) as StandInError;
      expect(e).toBeInstanceOf(StandInError);
      expect(e.code).toBe("#N/A");
      expect(e.message).toMatch(/https/);
      const list = (await xl.call("JUDETE", [])) as StandInError; // a failed list: one error in its own cell
      expect(list).toBeInstanceOf(StandInError);
      expect(list.message).toMatch(/https/);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  test("on loopback the same cell has its value", async () => {
    const xl = excel(sb.url);
    expect(await xl.call("DENUMIRE", [CUI])).toEqual([[company.denumire]]);
  });
});
