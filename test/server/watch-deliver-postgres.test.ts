/**
 * The watch's alerts with several processes on one PostgreSQL (a throwaway cluster,
 * test/support/postgres.ts): two deliverers passing at the same time while checks commit never send an
 * alert twice, and miss none (every change reaches a receiver that de-duplicates by its number exactly
 * once, and one that does not at least once); a deliverer killed with SIGKILL while its webhook is on its
 * way loses nothing: once its claim lapses, the same alert, with the same changes, goes out from the
 * next deliverer.
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";
import { withControlDigit } from "../../src/api/cui";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { Deliverer } from "../../src/server/firm/watch-deliver";
import { AlertMailer } from "../../src/server/firm/watch-mail";
import type { StoredChange } from "../../src/server/firm/watch-store";
import { startHookReceiver, startMailbox } from "../support/alert-receivers";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";

const installed = postgresBinDir() !== null;
const suite = installed ? describe : describe.skip;
const NOW = Date.UTC(2026, 10, 25, 4, 0);
const SECRET = "a-shared-secret-of-32-characters";
const LISTS = ["clienti", "furnizori", "banci", "parteneri"];

let pg: PostgresCluster;
let serial = 0;
const children: ChildProcess[] = [];
const closing: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (installed) pg = await startPostgres();
}, 120_000);
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const f of closing.splice(0).reverse()) await f();
});
afterAll(async () => {
  if (installed) await pg.stop();
});

async function database(): Promise<{ url: string; a: FirmStore; b: FirmStore }> {
  const url = await pg.createDatabase(`alerts${++serial}`);
  const a = await openFirmStore(url);
  const b = await openFirmStore(url);
  closing.push(
    () => a.close(),
    () => b.close(),
  );
  return { url, a, b };
}

/** A check's changes: one per company of `cuis`, its VAT lost. */
function found(cuis: number[]) {
  const changes = cuis.map((cui) => ({ cui, field: "platitor_tva", before: true, after: false, name: `Firma ${cui} SRL` }));
  return { changes, updates: changes.map((c) => ({ cui: c.cui, field: c.field, value: c.after })), unknown: [] };
}

suite("two deliverers on one PostgreSQL", () => {
  test("checks committing while both pass: every alert sent once by e-mail and once by webhook, none missed", async () => {
    const { a, b } = await database();
    const hook = await startHookReceiver(SECRET);
    const box = await startMailbox();
    closing.push(
      () => hook.close(),
      () => box.close(),
    );
    for (const name of LISTS) {
      await a.watch.addList({ name, owner: null, schedule: null, notify: [`${name}@firma.ro`], cuis: [] }, NOW);
      await a.outbox.setHook(name, hook.url, SECRET, NOW);
    }
    const sentBy = [0, 0];
    const deliverers = [a, b].map((store, i) => {
      const mailer = new AlertMailer({ url: box.url, from: "alerte@firma.ro" });
      const d = new Deliverer({ store, mailer, holder: `instance-${i}`, batch: 3, onOutcome: (_t, o) => o === "sent" && sentBy[i]++ });
      closing.push(
        () => mailer.close(),
        () => d.stop(),
      );
      return d;
    });
    for (const d of deliverers) d.start(40);
    // 24 checks, committed through both instances, each kicking both deliverers as it commits.
    const committed: StoredChange[] = [];
    for (let i = 0; i < 24; i++) {
      const store = i % 2 === 0 ? a : b;
      const cuis = [withControlDigit(100_000 + i * 10), withControlDigit(100_001 + i * 10)];
      committed.push(...(await store.watch.commitCheck(LISTS[i % LISTS.length], found(cuis), NOW + i * 1000)));
      for (const d of deliverers) d.kick();
    }
    const ids = committed.map((c) => c.id).sort((x, y) => x - y);
    const deadline = Date.now() + 30_000;
    const received = () => hook.calls.flatMap((c) => c.json.changes.map((ch) => ch.id));
    while ((received().length < ids.length || box.messages.length < 24) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    for (const d of deliverers) await d.stop();
    await Promise.all(deliverers.map((d) => d.deliverDue()));

    // A receiver that de-duplicates by the change's number acts on each exactly once, and on all.
    expect([...new Set(received())].sort((x, y) => x - y)).toEqual(ids);
    // One that does not: at least once — and with the claims, exactly once here (no instance died).
    expect(received().sort((x, y) => x - y)).toEqual(ids);
    expect(hook.calls.every((c) => c.verified)).toBe(true);
    const alerts = box.messages.map((m) => m.mail.headers.get("x-firma-alert"));
    expect(alerts).toHaveLength(24);
    expect(new Set(alerts).size).toBe(24);
    // Both instances delivered (the claims shared the work out, they did not leave it to one).
    expect(sentBy[0] + sentBy[1]).toBe(48);
    expect(Math.min(...sentBy)).toBeGreaterThan(0);
    const states = await a.outbox.deliveries();
    expect(states).toHaveLength(48);
    expect(states.every((s) => s.state === "sent" && s.attempts === 1)).toBe(true);
  }, 60_000);

  test("a deliverer killed (SIGKILL) while its webhook is on its way: after its claim lapses, the same alert goes out from the next one, nothing lost", async () => {
    const { url, a } = await database();
    const hook = await startHookReceiver(SECRET);
    closing.push(() => hook.close());
    await a.watch.addList({ name: "clienti", owner: null, schedule: null, notify: [], cuis: [] }, NOW);
    await a.outbox.setHook("clienti", hook.url, SECRET, NOW);
    const stored = await a.watch.commitCheck("clienti", found([withControlDigit(1234567), withControlDigit(7654321)]), Date.now());
    hook.answer = "hang";

    const claimMs = 3_000;
    // node --import tsx, not the tsx command: SIGKILL must reach the process that delivers, not a wrapper.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "..", "support", "deliver-child.ts"), url, String(claimMs)],
      {
        cwd: path.resolve(__dirname, "../.."),
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(child);
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_c, signal) => r(signal)));
    const deadline = Date.now() + 30_000;
    while (hook.calls.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(hook.calls).toHaveLength(1);
    const killedAt = Date.now();
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    hook.answer = 200;
    const next = new Deliverer({ store: a, mailer: null, holder: "restarted" });
    closing.push(() => next.stop());
    // Its claim still holds: nobody sends it twice meanwhile.
    if (Date.now() - killedAt < claimMs - 500) expect(await next.deliverDue()).toMatchObject({ sent: 0 });
    await new Promise((r) => setTimeout(r, Math.max(0, claimMs + 200 - (Date.now() - killedAt))));
    expect(await next.deliverDue()).toMatchObject({ sent: 1 });
    expect(hook.calls).toHaveLength(2);
    expect(hook.calls[1].json.alert).toBe(hook.calls[0].json.alert);
    expect(hook.calls[1].json.changes.map((c) => c.id)).toEqual(stored.map((c) => c.id));
    expect(hook.calls[1].verified).toBe(true);
    const [delivery] = await a.outbox.deliveries("clienti");
    expect(delivery).toMatchObject({ state: "sent", attempts: 1 });
  }, 60_000);
});
