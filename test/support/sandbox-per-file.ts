/**
 * One sandbox for a test file, over real HTTP on loopback: started before the file's tests, closed
 * after them, and its settings put back before each test (`reset` makes them anew each time, so a
 * test that changes `faults` leaves nothing behind). The returned value stands for the running
 * sandbox once the file's tests start.
 */
import { startSandbox, type Sandbox } from "../../sandbox/server";

export function sandboxPerFile(reset: () => Partial<Sandbox["config"]>): Sandbox {
  let current: Sandbox | null = null;
  beforeAll(async () => {
    current = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    Object.assign(current!.config, reset());
  });
  return new Proxy({} as Sandbox, {
    get(_, name) {
      if (!current) throw new Error("the sandbox starts with the file's tests");
      const v = (current as unknown as Record<string | symbol, unknown>)[name];
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(current) : v;
    },
  });
}
