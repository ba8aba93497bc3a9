/**
 * Each person's share of the server's work (src/server/firm/fair-gate.ts): a person has at most
 * `perPerson` requests worked on at once, her others wait behind her own in order, the others' never
 * wait behind hers; a request waiting for the service gives its place back meanwhile.
 */
import { FairGate } from "../../src/server/firm/fair-gate";
import { Metrics } from "../../src/server/firm/metrics";

const tick = () => new Promise((r) => setImmediate(r));

test("a person's requests past her places wait behind her own, in order; another person's go at once", async () => {
  const g = new FairGate(2);
  const order: string[] = [];
  const held: { leave(): void }[] = [];
  const ask = (p: string, tag: string) =>
    g.enter(p).then((t) => {
      order.push(tag);
      held.push(t);
    });
  const loops = [1, 2, 3, 4, 5].map((i) => ask("loop", `loop${i}`));
  await tick();
  expect(order).toEqual(["loop1", "loop2"]);
  expect(g.queued).toBe(3);
  await ask("ana", "ana1"); // not behind hers
  expect(order).toEqual(["loop1", "loop2", "ana1"]);
  held[0].leave();
  held[0].leave(); // again: nothing
  await tick();
  expect(order).toEqual(["loop1", "loop2", "ana1", "loop3"]);
  for (const t of held.splice(0)) t.leave();
  await tick();
  for (const t of held.splice(0)) t.leave();
  await Promise.all(loops);
  for (const t of held.splice(0)) t.leave();
  expect(order.filter((o) => o.startsWith("loop"))).toEqual(["loop1", "loop2", "loop3", "loop4", "loop5"]);
  expect(g.busy).toBe(0);
  expect(g.queued).toBe(0);
  expect(() => new FairGate(0)).toThrow(/perPerson/);
});

test("a request waiting for the service gives its place back to her next request, and waits its turn for it again", async () => {
  const g = new FairGate(1);
  const t = await g.enter("ana");
  let release!: (v: string) => void;
  const service = new Promise<string>((r) => (release = r));
  const back = t.pause(service);
  const next = await g.enter("ana"); // the place she gave back
  let resumed = false;
  void back.then(() => (resumed = true));
  release("answers");
  await tick();
  expect(resumed).toBe(false); // her next request holds the place
  next.leave();
  expect(await back).toBe("answers");
  expect(g.busy).toBe(1);
  t.leave();
  expect(g.busy).toBe(0);
});

test("a call to the service that fails: the failure reaches the request, which holds its place again (and gives it back at the end)", async () => {
  const g = new FairGate(1);
  const t = await g.enter("ana");
  await expect(t.pause(Promise.reject(new Error("service down")))).rejects.toThrow("service down");
  expect(g.busy).toBe(1);
  let next = false;
  void g.enter("ana").then((n) => {
    next = true;
    n.leave();
  });
  await tick();
  expect(next).toBe(false); // hers waits behind the one that failed
  t.leave();
  await tick();
  expect(next).toBe(true);
  expect(g.busy).toBe(0);
});

test("/metrics says how many requests wait behind their person's own", async () => {
  const g = new FairGate(1);
  const m = new Metrics();
  m.gate = g;
  const first = await g.enter("loop");
  const second = g.enter("loop");
  await tick();
  expect(m.text()).toMatch(/^firma_requests_waiting_turn 1$/m);
  first.leave();
  (await second).leave();
  expect(m.text()).toMatch(/^firma_requests_waiting_turn 0$/m);
});
