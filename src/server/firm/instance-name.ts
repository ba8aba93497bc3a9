/**
 * A server instance's name on its claims and leases (loader.ts), and whether the instance a name
 * belongs to has stopped for certain. The name says where the instance runs: its machine (host name,
 * boot id and process-id space) and its process id, then a random part that keeps two instances of
 * one process apart (as the tests run them). An instance killed while its calls were on their way leaves its claims behind
 * until they run out (a minute: the longest a call may take, and a margin); another instance on the
 * same machine, such as the same server started again, sees at once that the process is gone and
 * takes them over, instead of making the people who asked wait that minute. An instance on another
 * machine cannot be seen: its claims still run out as before.
 *
 * Containers with their own process-id spaces are told apart by it, even when they share a host name.
 */
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";

/**
 * This machine as a process sees it: its host name, the id of its present boot and the process-id
 * space (Linux: /proc). Null where the system does not say both (another system, a restricted /proc):
 * then no instance is ever known stopped, and claims run out as before.
 */
function machine(host: string): string | null {
  try {
    const boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim().replace(/-/g, "").slice(0, 12);
    const pids = /\[(\d+)\]/.exec(fs.readlinkSync("/proc/self/ns/pid"))?.[1];
    return boot && pids ? `${host}.${boot}.${pids}` : null;
  } catch {
    return null;
  }
}

/** The host name as a name may carry it: no spaces, "~" or ":" (notices and lease names split on them). */
const HOST = os.hostname().replace(/[^A-Za-z0-9.-]/g, "_") || "host";
const HERE = machine(HOST);

/** A new instance's name: `<machine>~<pid>~<random>` (`<host>~<pid>~<random>` where the machine cannot be told). */
export function instanceName(pid = process.pid): string {
  return `${HERE ?? HOST}~${pid}~${randomUUID()}`;
}

/**
 * Whether the instance named `name` has stopped for certain: it ran on this machine, in this boot and
 * process-id space, and its process is gone. False when that cannot be known (another machine or
 * container, a system that does not say, a name of another form, a process of another user, which
 * answers EPERM) and for this very process.
 */
export function stoppedHere(name: string, alive: (pid: number) => boolean = processAlive): boolean {
  const parts = name.split("~");
  if (HERE === null || parts.length !== 3 || parts[0] !== HERE) return false;
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
