/**
 * A list function that fails answers one error in its own cell (no header row above it),
 * so that IFERROR and ISERROR around it see the error.
 */
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { evaluate } from "../../src/shared/evaluate";
import { isCellError } from "../../src/shared/cells";
import { startSandbox, Sandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

test.each([
  ["CAUTA", ["transport", "CJ"]],
  ["TOPURI", [null, null, null]],
  ["TOP", ["top-cifra-afaceri-2024-national", 5]],
  ["JUDETE", []],
  ["ISTORIC", [14399840, 2020, 2024]],
])("%s with the service failing: a single error in the formula's own cell", async (name, args) => {
  sb.config.faults = { errorRate: 1 };
  const engine = new FirmaEngine({
    baseUrl: sb.url,
    apiKey: () => "demo-enterprise-lists",
    store: new MemoryStore(),
    windowMs: 1,
    retries: 0,
  });
  const m = await evaluate(name, args, { engine, lang: "ro" });
  sb.config.faults = {};
  expect(m).toHaveLength(1);
  expect(m[0]).toHaveLength(1);
  expect(isCellError(m[0][0])).toBe(true);
});

test("TOP with an unknown ranking: #N/A in its own cell, saying so", async () => {
  const engine = new FirmaEngine({ baseUrl: sb.url, apiKey: () => "demo-enterprise-lists2", store: new MemoryStore(), windowMs: 1 });
  const m = await evaluate("TOP", ["top-nu-exista", 5], { engine, lang: "en" });
  expect(m).toEqual([[{ error: "#N/A", message: expect.stringMatching(/No such ranking/) }]]);
});
