/**
 * The breaker's question (gate.ts) through the engine and the client, against the sandbox over
 * loopback HTTP: six calls in flight, the lanes of a connection over HTTP/1.1, whose connections all
 * break at once make six failures in a row. One retry then asks the service alone (the probe); the
 * other five wait for its verdict. An answer sends them, and every cell is right; no answer refuses
 * them, and the cells say the service did not answer, at the probe's one attempt more.
 */
import { read } from "../support/engine-reads";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { engineFor } from "../support/engine";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, latencyMs: 10 }));
let n = 0;

/**
 * A fetch whose first six requests hang until the test breaks them all in one go (a TypeError each,
 * as fetch's failed connection); `down` fails every request after them at once, as a service that
 * does not answer. `sent` counts the requests made, `reached` those passed on to the sandbox.
 */
function breakingFetch(down: boolean) {
  const hung: (() => void)[] = [];
  let allHung: () => void = () => undefined;
  const sixHung = new Promise<void>((r) => (allHung = r));
  const t = { sent: 0, reached: 0, sixHung, breakAll: () => hung.splice(0).forEach((f) => f()) };
  const f: typeof fetch = (input, init) => {
    if (++t.sent <= 6) {
      return new Promise<Response>((_, reject) => {
        hung.push(() => reject(new TypeError("fetch failed")));
        if (hung.length === 6) allHung();
      });
    }
    if (down) return Promise.reject(new TypeError("fetch failed"));
    t.reached++;
    return fetch(input, init);
  };
  return { fetch: f, t };
}

async function fill(down: boolean) {
  const { fetch, t } = breakingFetch(down);
  const { engine } = engineFor(sb, `demo-pro-breaker${++n}`, { fetch, concurrency: 6, retries: 2, timeoutMs: 5000 });
  await engine.ready();
  // 600 companies: six identification batches of 100, the six calls in flight at once.
  const cuis = data.sampleCuis(600, 700_000 + n * 1000);
  const cells = Promise.allSettled(cuis.map((cui) => read(() => engine.profileField(cui, "denumire")).then((got) => ({ cui, got }))));
  await t.sixHung;
  t.breakAll();
  return { t, cells: await cells };
}

test("six connections broken at once: one retry asks the service, and its answer sends the other five; every cell right", async () => {
  const { t, cells } = await fill(false);
  for (const c of cells) {
    expect(c.status).toBe("fulfilled");
    if (c.status === "fulfilled") expect(c.value.got).toBe(data.company(c.value.cui)!.denumire);
  }
  expect(t.sent).toBe(12); // the six broken, the probe, the five that waited for it
  expect(t.reached).toBe(6);
});

test("six connections broken at once and a probe that gets no answer: the five waiting retries are refused, not sent", async () => {
  const { t, cells } = await fill(true);
  for (const c of cells) {
    expect(c.status).toBe("rejected");
    if (c.status === "rejected") expect(String(c.reason)).toMatch(/cannot be reached/);
  }
  expect(t.sent).toBe(7); // the six broken and the probe
  expect(t.reached).toBe(0);
});
