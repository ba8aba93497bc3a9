/**
 * A deliverer in a process of its own, for the tests that kill it (SIGKILL) in the middle of a delivery:
 * opens the firm's database given as its argument, runs one pass with claims lasting `claimMs` and a
 * webhook timeout long enough that the test, not the timeout, ends the attempt.
 */
import { openFirmStore } from "../../src/server/firm/open-store";
import { Deliverer } from "../../src/server/firm/watch-deliver";

void (async () => {
  const [url, claimMs] = process.argv.slice(2);
  const store = await openFirmStore(url);
  const d = new Deliverer({ store, mailer: null, holder: "child", claimMs: Number(claimMs), webhookTimeoutMs: 60_000 });
  process.stdout.write(`${JSON.stringify(await d.deliverDue())}\n`);
  await store.close();
})();
