/**
 * An instance's name says where it runs (instance-name.ts): a claim's owner is known stopped only when it
 * ran on this machine and its process is gone; anything that cannot be known counts as running.
 */
import { spawnSync } from "child_process";
import { instanceName, stoppedHere } from "../../src/server/firm/instance-name";

/** The pid of a process that has run and ended. */
function endedPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

test("a name of this machine whose process has ended is stopped; this process, a running one and two instances of one process are not", () => {
  const pid = endedPid();
  expect(pid).toBeGreaterThan(0);
  expect(stoppedHere(instanceName(pid))).toBe(true);
  expect(stoppedHere(instanceName())).toBe(false); // this process
  expect(stoppedHere(instanceName(process.ppid))).toBe(false); // Jest's parent: running
  const [a, b] = [instanceName(), instanceName()];
  expect(a).not.toBe(b); // two instances of one process keep apart
  expect(a.split("~").slice(0, 2)).toEqual(b.split("~").slice(0, 2));
});

test("what cannot be known counts as running: another machine, another form of name, a process of another user", () => {
  const pid = endedPid();
  const [, , random] = instanceName(pid).split("~");
  expect(stoppedHere(`other-host.0123456789ab.4026531836~${pid}~${random}`)).toBe(false);
  // The same host and boot, another process-id space (a container that shares the host name): its pids are not ours to test.
  const [here] = instanceName(pid).split("~");
  expect(stoppedHere(`${here.replace(/\.\d+$/, ".1")}~${pid}~${random}`)).toBe(false);
  expect(stoppedHere("2f1c6a0e-0d5e-4c8e-9a57-1b2c3d4e5f60")).toBe(false); // a name before host and pid were in it
  expect(stoppedHere(instanceName(pid).replace(`~${pid}~`, "~x~"))).toBe(false);
  expect(stoppedHere(instanceName(pid).replace(`~${pid}~`, "~0~"))).toBe(false);
  // The process's answer decides: EPERM (another user's process) is a running process.
  expect(stoppedHere(instanceName(pid), () => true)).toBe(false);
  expect(stoppedHere(instanceName(4242), (p) => p !== 4242)).toBe(true);
});
