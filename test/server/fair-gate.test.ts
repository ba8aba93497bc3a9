/**
 * The server's work in turn (src/server/firm/fair-gate.ts): free places are taken at once; when they
 * are all held, the people waiting get them one request each, in turn, however many requests one of
 * them has waiting; a request waiting for the service gives its place back meanwhile.
 */
import { FairGate } from "../../src/server/firm/fair-gate";

const tick = () => new Promise((r) => setImmediate(r));

test("free places are taken at once, as many as the capacity", async () => {
  const g = new FairGate(3);
  const turns = await Promise.all(["ana", "ana", "bogdan"].map((p) => g.enter(p)));
  expect(g.busy).toBe(3);
  let fourth = false;
  void g.enter("carmen").then(() => (fourth = true));
  await tick();
  expect(fourth).toBe(false);
  expect(g.queued).toBe(1);
  turns[0].leave();
  turns[0].leave(); // again: nothing
  await tick();
  expect(fourth).toBe(true);
  expect(g.busy).toBe(3);
  expect(() => new FairGate(0)).toThrow(/capacity/);
});

test("when the places are held, one person's many requests wait behind her own: the others get their turn", async () => {
  const g = new FairGate(1);
  const first = await g.enter("loop");
  const order: string[] = [];
  const waits: Promise<void>[] = [];
  const ask = (p: string, n: number) => {
    for (let i = 0; i < n; i++)
      waits.push(
        g.enter(p).then(async (t) => {
          order.push(p);
          await tick();
          t.leave();
        }),
      );
  };
  ask("loop", 6); // 6 waiting before the others come
  ask("ana", 2);
  ask("bogdan", 1);
  first.leave();
  await Promise.all(waits);
  expect(order).toEqual(["loop", "ana", "bogdan", "loop", "ana", "loop", "loop", "loop", "loop"]);
  expect(g.busy).toBe(0);
  expect(g.queued).toBe(0);
});

test("a request waiting for the service gives its place back, and waits its turn for it again", async () => {
  const g = new FairGate(1);
  const t = await g.enter("ana");
  let release!: (v: string) => void;
  const service = new Promise<string>((r) => (release = r));
  const back = t.pause(service);
  const other = await g.enter("bogdan"); // the place ana gave back
  let resumed = false;
  void back.then(() => (resumed = true));
  release("answers");
  await tick();
  expect(resumed).toBe(false); // bogdan holds the place
  other.leave();
  expect(await back).toBe("answers");
  expect(g.busy).toBe(1);
  t.leave();
  expect(g.busy).toBe(0);
});
