/**
 * The claim watch (claim-watch.ts) acts only on what it still watches when the database answers: a want
 * its claimer handed to this instance is unwatched and queued here while a poll is on its way, and that
 * poll must not queue it a second time (it would be sent twice: once in the batch it joined, once again).
 */
import { ClaimWatch } from "../../src/server/firm/claim-watch";
import type { Entry } from "../../src/server/firm/loader-calls";
import type { StoredAnswer } from "../../src/server/firm/firm-store";

const entry = (id: string): Entry => ({ id, want: { kind: "profile", cui: 1 }, waiters: [], since: 0, sent: false }) as unknown as Entry;

test("a want unwatched while a poll is on its way is neither handed back nor settled by that poll", async () => {
  let answer!: () => void;
  const gate = new Promise<void>((r) => (answer = r));
  const polled: string[][] = [];
  const back: string[] = [];
  const found: string[] = [];
  const watch = new ClaimWatch({
    store: {
      // Nobody holds a claim on them any more and nothing is stored: both would go back to the queue.
      claimedKeys: async (keys: readonly string[]) => {
        polled.push([...keys]);
        await gate;
        return new Set<string>();
      },
      getAnswers: async () => new Map<string, StoredAnswer>(),
    },
    pollMs: 1,
    now: Date.now,
    found: (entries) => found.push(...entries.map((e) => e.id)),
    back: (entries) => back.push(...entries.map((e) => e.id)),
  });
  try {
    watch.add([entry("a"), entry("b")]);
    while (polled.length === 0) await new Promise((r) => setTimeout(r, 1));
    expect(watch.unwatch("a")).toBe(true); // handed here by its claimer: queued here, not by the watch
    answer();
    while (back.length === 0) await new Promise((r) => setTimeout(r, 1));
    expect(back).toEqual(["b"]);
    expect(found).toEqual([]);
    expect(watch.unwatch("a")).toBe(false);
  } finally {
    watch.close();
  }
});
