/**
 * Each person's turn at the server's work. A request of the custody API holds a place while the server
 * works on it (the store's answers, their JSON, the audit line); there are `capacity` places. While
 * places are free a request takes one at once; when they are all held, the requests waiting get them
 * person by person in turn, one request each round, so that one person with many requests on their
 * way (an add-in stuck in a loop, 64 at once) gets one turn among the others' and not 64: her requests
 * wait behind her own, the others' do not wait behind hers. A request waiting for the service (the
 * loader's call) gives its place back meanwhile (`pause`), so that people waiting on the service never
 * keep the others from the store.
 */

/** A request's hold on the gate. */
export interface Turn {
  /** Gives the place back while the request waits for something that is not the server's work; resolves when it has one again. */
  pause<T>(wait: Promise<T>): Promise<T>;
  /** Gives the place back for good (again: nothing). */
  leave(): void;
}

export class FairGate {
  private working = 0;
  /** The people waiting, in turn order (a Map keeps insertion order), each with her requests waiting. */
  private readonly waiting = new Map<string, (() => void)[]>();

  /** @param capacity places at once (requests the server works on together, its waits on the database included) */
  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new TypeError("fair gate: capacity must be a whole number ≥ 1");
  }

  /** Requests holding a place now. */
  get busy(): number {
    return this.working;
  }

  /** Requests waiting for a place now. */
  get queued(): number {
    let n = 0;
    for (const q of this.waiting.values()) n += q.length;
    return n;
  }

  /** Waits for `person`'s turn; resolves with the request's hold. */
  async enter(person: string): Promise<Turn> {
    await this.place(person);
    let held = true;
    const leave = () => {
      if (!held) return;
      held = false;
      this.working--;
      this.next();
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

  private place(person: string): Promise<void> {
    // A free place and nobody waiting: at once.
    if (this.working < this.capacity && this.waiting.size === 0) {
      this.working++;
      return Promise.resolve();
    }
    return new Promise<void>((go) => {
      const q = this.waiting.get(person);
      if (q) q.push(go);
      else this.waiting.set(person, [go]);
      this.next();
    });
  }

  /** Gives the free places to the people waiting, one request each, in turn. */
  private next(): void {
    while (this.working < this.capacity && this.waiting.size > 0) {
      const [person, q] = this.waiting.entries().next().value as [string, (() => void)[]];
      const go = q.shift()!;
      // Her next request waits for the others' turn: to the end of the line, or out of it.
      this.waiting.delete(person);
      if (q.length > 0) this.waiting.set(person, q);
      this.working++;
      go();
    }
  }
}
