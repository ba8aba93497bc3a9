/**
 * A call the service refuses as busy (503, not charged: it cost nothing) is asked again by the firm's
 * loader (loader.ts), after the service's Retry-After or a pause that doubles, four times in all; then the
 * person gets the failure. A server closing while such a call waits fails it at once and asks nothing more.
 * The service is the sandbox behind an Upstream that answers busy for its first calls, so that each
 * attempt is counted exactly.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { FirmLoader, type Requester } from "../../src/server/firm/loader";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { upstream, type Upstream, type UpstreamAnswer } from "../../src/server/firm/upstream";
import { wantKey, type Want } from "../../src/server/firm/request-wants";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

let dir: string;
let store: FirmStore;
let serial = 0;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-busy-retry-"));
  store = await openFirmStore(path.join(dir, "firm.sqlite"));
  await store.addUser("ana", 100, `hash-ana-${++serial}`, Date.now());
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CUIS = data
  .sampleCuis(10, 5_101)
  .filter((c) => data.company(c))
  .slice(0, 2);
const WANTS: Want[] = CUIS.map((cui) => ({ kind: "ident", cui, include: "" }));
const ana = (): Requester => ({ id: 1, user: "ana", credits: 0, fetched: false });
const busy: UpstreamAnswer = {
  status: 503,
  body: { error: { code: "busy" } },
  plan: null,
  retryAfterMs: null,
  said: { code: "busy", message: null },
};

/** The sandbox, busy for its first `busyFor` calls (asking for `retryAfterMs` if given); each call's time kept. */
function service(busyFor: number, retryAfterMs: number | null = null) {
  const at: number[] = [];
  const real = upstream({ base: () => sb.url, key: `demo-business-busy${++serial}`, timeoutMs: 5000 });
  const up: Upstream = async (p) => {
    at.push(Date.now());
    if (at.length <= busyFor) return { answer: { ...busy, retryAfterMs }, charged: false };
    return real(p);
  };
  return { at, up };
}

test("busy three times, then answered: four calls, one credit, the pauses doubling from 100 ms", async () => {
  const svc = service(3);
  const loader = new FirmLoader({ store, upstream: svc.up, maxPerDay: null, windowMs: 5 });
  try {
    const r = ana();
    const got = await loader.load(WANTS, r);
    expect(WANTS.map((w) => (got.get(wantKey(w)) as { denumire: string }).denumire)).toEqual(CUIS.map((c) => data.company(c)!.denumire));
    expect(svc.at).toHaveLength(4);
    const pauses = svc.at.slice(1).map((t, i) => t - svc.at[i]);
    expect(pauses[0]).toBeGreaterThanOrEqual(95);
    expect(pauses[1]).toBeGreaterThanOrEqual(195);
    expect(pauses[2]).toBeGreaterThanOrEqual(395);
    expect(r.credits).toBe(1);
  } finally {
    loader.close();
  }
});

test("busy four times: the person gets the failure after the fourth call, and nothing is charged", async () => {
  const svc = service(99);
  const loader = new FirmLoader({ store, upstream: svc.up, maxPerDay: null, windowMs: 5 });
  try {
    const r = ana();
    await expect(loader.load(WANTS, r)).rejects.toMatchObject({ status: 502, code: "upstream_failed" });
    expect(svc.at).toHaveLength(4);
    expect(r.credits).toBe(0);
  } finally {
    loader.close();
  }
});

test("the server closing while a busy call waits: the person gets the failure at once, and the service is not asked again", async () => {
  // The service asks for 1 s before the next attempt, so that a loaded machine's timers cannot reach it
  // before the close; without the close failing the waiting call, the failure would come after 3 s.
  const svc = service(99, 1_000);
  const loader = new FirmLoader({ store, upstream: svc.up, maxPerDay: null, windowMs: 5 });
  const pending = loader.load(WANTS, ana());
  pending.catch(() => {});
  while (svc.at.length < 1) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 20)); // its answer in, its next attempt waiting
  const closedAt = Date.now();
  loader.close();
  await expect(pending).rejects.toMatchObject({ code: "upstream_failed" });
  expect(Date.now() - closedAt).toBeLessThan(500);
  await new Promise((r) => setTimeout(r, svc.at[0] + 2_000 - Date.now())); // the retry was due at +1 s
  expect(svc.at).toHaveLength(1);
});
