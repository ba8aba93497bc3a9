/**
 * Each person's share of the server's work. The server has one thread, and it works on requests in the
 * order they come: an add-in with 120 requests on their way (one stuck in a loop) would have 120 turns for
 * each of another person's one. Here a person has at most `perPerson` requests worked on at once; her
 * others wait behind her own, in order, while everyone else's go on. A request waiting for the service
 * (the loader's call) gives its place back meanwhile (`pause`), so that a large refresh still has all its
 * calls on their way at once: only the server's own work is shared out.
 */

/** A request's hold on its person's places. */
export interface Turn {
  /** Gives the place back while the request waits for something that is not the server's work; resolves when it has one again. */
  pause<T>(wait: Promise<T>): Promise<T>;
  /** Gives the place back for good (again: nothing). */
  leave(): void;
}

interface Person {
  working: number;
  waiting: (() => void)[];
}

export class FairGate {
  private readonly people = new Map<string, Person>();

  /** @param perPerson requests of one person worked on at once */
  constructor(readonly perPerson: number) {
    if (!(Number.isInteger(perPerson) && perPerson >= 1)) throw new TypeError("fair gate: perPerson must be a whole number ≥ 1");
  }

  /** Requests worked on now. */
  get busy(): number {
    let n = 0;
    for (const p of this.people.values()) n += p.working;
    return n;
  }

  /** Requests waiting behind their person's own now. */
  get queued(): number {
    let n = 0;
    for (const p of this.people.values()) n += p.waiting.length;
    return n;
  }

  /** Waits for a place among `person`'s; resolves with the request's hold. */
  async enter(person: string): Promise<Turn> {
    await this.place(person);
    let held = true;
    const leave = () => {
      if (!held) return;
      held = false;
      this.free(person);
    };
    return {
      leave,
      pause: async <T>(wait: Promise<T>): Promise<T> => {
        if (!held) return wait;
        leave();
        try {
          return await wait;
        } finally {
          await this.place(person);
          held = true;
        }
      },
    };
  }

  private place(name: string): Promise<void> {
    let p = this.people.get(name);
    if (!p) this.people.set(name, (p = { working: 0, waiting: [] }));
    if (p.working < this.perPerson && p.waiting.length === 0) {
      p.working++;
      return Promise.resolve();
    }
    const person = p;
    return new Promise<void>((go) => person.waiting.push(go));
  }

  private free(name: string): void {
    const p = this.people.get(name);
    if (!p) return;
    p.working--;
    const go = p.waiting.shift();
    if (go) {
      p.working++;
      go();
    } else if (p.working === 0) this.people.delete(name);
  }
}
