/**
 * A server instance's name on its claims and leases (loader.ts), and whether the instance a name
 * belongs to has stopped for certain. The name says where the instance runs: its machine (host name and
 * boot id) and its process id, then a random part that keeps two instances of one process apart (as
 * the tests run them). An instance killed while its calls were on their way leaves its claims behind
 * until they run out (a minute: the longest a call may take, and a margin); another instance on the
 * same machine, such as the same server started again, sees at once that the process is gone and
 * takes them over, instead of making the people who asked wait that minute. An instance on another
 * machine cannot be seen: its claims still run out as before.
 *
 * Instances on one machine that are given the same host name must see each other's processes (one
 * process namespace), as processes on one machine do unless containers separate them.
 */
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";

/** This machine: its host name and, where the system says it (Linux), the id of its present boot. */
function machine(): string {
  const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, "_") || "host";
  let boot = "";
  try {
    boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim().replace(/-/g, "").slice(0, 12);
  } catch {
    // not Linux: the host name alone
  }
  return boot ? `${host}.${boot}` : host;
}

const HERE = machine();

/** A new instance's name: `<machine>~<pid>~<random>`. */
export function instanceName(pid = process.pid): string {
  return `${HERE}~${pid}~${randomUUID()}`;
}

/**
 * Whether the instance named `name` has stopped for certain: it ran on this machine (its boot
 * included) and its process is gone. False when that cannot be known (another machine, a name of
 * another form, a process of another user, which answers EPERM) and for this very process.
 */
export function stoppedHere(name: string, alive: (pid: number) => boolean = processAlive): boolean {
  const parts = name.split("~");
  if (parts.length !== 3 || parts[0] !== HERE) return false;
  const pid = Number(parts[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  return !alive(pid);
}

/** Signal 0 tests the process without touching it: ESRCH, no such process; EPERM, one of another user. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
