/**
 * Evidence that Excel ran a FIRMA cell: while the pane watches (a refresh has just asked Excel to
 * calculate its cells), the functions record each invocation by function and arguments; the pane
 * matches them to the cells it asked for. No Microsoft page promises that a calculate method re-runs a
 * custom function whose arguments did not change (docs/excel.md, "Refresh"), and Excel on the web may
 * take long to start: so the pane waits for this evidence, cell by cell, rather than for a fixed time,
 * and enters again only the formulas Excel did not run.
 *
 * The functions and the pane share this module (one webpack runtime). Nothing is recorded while no
 * watch is open: a recalculation costs no key per cell.
 */

/** Arguments as a key: every argument as rows of values (a lone value is a 1×1 range, an empty cell and an omitted argument alike), trailing omitted ones dropped. */
export function invocationKey(name: string, args: readonly unknown[]): string {
  const norm: unknown[] = [];
  for (const a of args) {
    const rows = Array.isArray(a) ? a.map((r) => (Array.isArray(r) ? r : [r])) : [[a]];
    norm.push(rows.map((r) => r.map((v) => (v === undefined || v === "" ? null : v))));
  }
  while (norm.length > 0 && JSON.stringify(norm[norm.length - 1]) === "[[null]]") norm.pop();
  return `${name.toUpperCase()}|${JSON.stringify(norm)}`;
}

/** What Excel ran since the watch opened. */
export class InvocationWatch {
  /** Invocations by key (invocationKey) and by function name. */
  readonly byKey = new Map<string, number>();
  readonly byName = new Map<string, number>();
  total = 0;

  record(name: string, args: readonly unknown[]): void {
    const key = invocationKey(name, args);
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
    const n = name.toUpperCase();
    this.byName.set(n, (this.byName.get(n) ?? 0) + 1);
    this.total++;
  }
}

let current: InvocationWatch | null = null;

/** Starts watching (a watch already open is replaced). */
export function openWatch(): InvocationWatch {
  current = new InvocationWatch();
  return current;
}

export function closeWatch(watch: InvocationWatch): void {
  if (current === watch) current = null;
}

/** Called by the functions for every invocation; a no-op unless the pane watches. */
export function recordInvocation(name: string, args: readonly unknown[]): void {
  if (current !== null) current.record(name, args);
}
