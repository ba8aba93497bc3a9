/**
 * The pane's link to a firm's server (src/taskpane/pane/firm.ts) without a browser: what each answer
 * of GET /firm/me means, that only a token's form is ever sent there, that the question goes to the
 * service address beside /v4 with the token in X-API-Key only, and her budget's view (usage.ts).
 */
import { askFirm, FirmLink, firmMeUrl } from "../../src/taskpane/pane/firm";
import { firmUsageView } from "../../src/taskpane/usage";
import { MemoryStore } from "../../src/engine/cache/store";
import { loadSettings, saveApiKey, useStore } from "../../src/shared/settings";

const TOKEN = `firma_${"A".repeat(43)}`;
const ME = { name: "ana", budget: 500, spent: 120, remaining: 380, month: "2026-11" };
const answer = (status: number, body: unknown = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("askFirm: what the firm's server's answer means", () => {
  test.each([
    ["200 with her figures: connected", () => answer(200, ME), { kind: "connected", me: ME }],
    ["401 (not a token): refused", () => answer(401), { kind: "refused", status: 401 }],
    ["403 (revoked or unknown): refused", () => answer(403), { kind: "refused", status: 403 }],
    ["404 (an ordinary service): none", () => answer(404), { kind: "none" }],
    ["200 that is a page, not her figures: none", () => answer(200, "<!doctype html>"), { kind: "none" }],
    ["200 with figures of the wrong kind: none", () => answer(200, { ...ME, budget: "500" }), { kind: "none" }],
    ["503 (its database is away): unreachable", () => answer(503), { kind: "unreachable", last: null }],
  ])("%s", async (_label, reply, expected) => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const fetch = (async (url: string, init?: RequestInit) => (calls.push({ url, init }), reply())) as unknown as typeof globalThis.fetch;
    expect(await askFirm(TOKEN, "https://firma.firm.example.ro/v4/", { fetch })).toEqual(expected);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe("https://firma.firm.example.ro/firm/me");
    expect((calls[0].init?.headers as Record<string, string>)["X-API-Key"]).toBe(TOKEN);
    expect(calls[0].url).not.toContain(TOKEN);
  });

  test("no answer at all: unreachable, keeping the last figures", async () => {
    const fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof globalThis.fetch;
    expect(await askFirm(TOKEN, "http://127.0.0.1:3001", { fetch, last: ME })).toEqual({ kind: "unreachable", last: ME });
  });

  test("an ordinary key, or an address that is not one, is never sent", async () => {
    let sent = 0;
    const fetch = (async () => (sent++, answer(200, ME))) as unknown as typeof globalThis.fetch;
    expect(await askFirm("demo-pro-abc", "http://127.0.0.1:3001", { fetch })).toEqual({ kind: "none" });
    expect(await askFirm(TOKEN, "http://example.ro", { fetch })).toEqual({ kind: "none" });
    expect(sent).toBe(0);
    expect(firmMeUrl("ftp://x")).toBeNull();
  });
});

describe("FirmLink: the saved token's state, kept fresh", () => {
  beforeEach(async () => {
    useStore(new MemoryStore());
    await loadSettings();
  });

  test("asks for the saved token, tells its listeners once per change, and forgets it when the key changes", async () => {
    let status = 200;
    let spent = 120;
    let sent = 0;
    const fetch = (async () => (sent++, answer(status, { ...ME, spent, remaining: 500 - spent }))) as unknown as typeof globalThis.fetch;
    const link = new FirmLink(fetch);
    let changes = 0;
    link.onChange(() => changes++);
    await saveApiKey(TOKEN);
    expect(await link.check()).toEqual({ kind: "connected", me: ME });
    expect(changes).toBe(1);
    await link.check();
    expect(changes).toBe(1); // the same figures: nothing to tell
    spent = 130;
    await link.check();
    expect(link.me?.spent).toBe(130);
    expect(changes).toBe(2);
    status = 403;
    expect((await link.check()).kind).toBe("refused");
    expect(link.me).toBeNull();
    // pokes while a question is out make one more question after it, not one each
    status = 200;
    sent = 0;
    const first = link.check();
    link.poke();
    link.poke();
    await first;
    await new Promise((r) => setTimeout(r, 0));
    await link.check();
    expect(sent).toBeLessThanOrEqual(3);
    // an ordinary key: nothing asked, state none at once
    await saveApiKey("demo-pro-abc");
    expect(link.current()).toEqual({ kind: "none" });
    sent = 0;
    expect(await link.check()).toEqual({ kind: "none" });
    expect(sent).toBe(0);
  });
});

describe("firmUsageView: her month against her budget", () => {
  test("the bar, what is left and the warnings at 80 % and when nothing is left", () => {
    expect(firmUsageView({ budget: 500, spent: 120, remaining: 380 })).toEqual({
      month: { used: 120, limit: 500, pct: 24 },
      left: 380,
      warning: null,
    });
    expect(firmUsageView({ budget: 500, spent: 400, remaining: 100 }).warning).toBe(80);
    expect(firmUsageView({ budget: 500, spent: 500, remaining: 0 }).warning).toBe(100);
    expect(firmUsageView({ budget: 0, spent: 0, remaining: 0 })).toMatchObject({ warning: 100, month: { pct: 100 } });
  });
});
