/**
 * FirmaEngine.markStale, the one engine method the pane added: a refresh of the selection makes
 * only the answers those cells use stale, so only they are fetched again (at the estimated cost),
 * and the rest of the cache stays fresh; a stale answer is still the fallback when the service fails.
 */
import { read } from "../support/engine-reads";
import { latestCompleteYear } from "../../src/engine/years";
import { cellRequests } from "../../src/shared/evaluate";
import * as data from "../../sandbox/dataset";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { engineFor } from "../support/engine";

let sb: Sandbox;
let n = 0;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());
afterEach(() => {
  sb.config.faults = {};
});

const setup = () => engineFor(sb, `demo-business-stale${++n}`, { retries: 0 });

test("only the marked cells are fetched again, at the cost the refresh estimate gave", async () => {
  const { engine, month } = setup();
  const [a, b, c, d] = data.sampleCuis(4, 700);
  const latest = latestCompleteYear();
  const all = () =>
    Promise.all([
      ...[a, b, c, d].map((x) => read(() => engine.profileField(x, "denumire"))),
      ...[a, b, c, d].map((x) => read(() => engine.financialField(x, null, "cifra_afaceri"))),
      engine.history(a, latest - 2, latest, ["profit_net"]),
    ]);
  await all();
  const first = month();
  await all();
  expect(month()).toBe(first); // everything cached

  const selection = [...cellRequests("DENUMIRE", [[[a], [b]]]), ...cellRequests("ISTORIC", [a, latest - 2, latest, "profit_net"])];
  const estimate = engine.estimate(selection, { refresh: true });
  engine.markStale(selection);
  expect(engine.estimate(selection).credits).toBe(estimate.credits); // now nothing of it is fresh
  await all();
  expect(month() - first).toBe(estimate.credits);
  expect(estimate.credits).toBe(2); // one batch of 2 names, one batch of 3 years for a

  await all();
  expect(month() - first).toBe(estimate.credits); // fresh again, and the rest never went stale
});

test("list requests and invalid CUIs are left alone", async () => {
  const { engine, month } = setup();
  await engine.list({ fn: "counties" });
  const before = month();
  engine.markStale([...cellRequests("JUDETE", []), ...cellRequests("DENUMIRE", ["123"]), ...cellRequests("CA", [data.EXAMPLE_CUI, 1900])]);
  await engine.list({ fn: "counties" });
  expect(month()).toBe(before);
});

test("a stale answer is still served when the service fails", async () => {
  const { engine } = setup();
  const name = await read(() => engine.profileField(data.EXAMPLE_CUI, "denumire"));
  engine.markStale(cellRequests("DENUMIRE", [data.EXAMPLE_CUI]));
  sb.config.faults = { errorRate: 1 };
  await expect(read(() => engine.profileField(data.EXAMPLE_CUI, "denumire"))).resolves.toBe(name);
});
