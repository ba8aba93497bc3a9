/**
 * The load/sync discipline of the Excel stand-in's proxies (office.js's ClientObject): `load()` queues a
 * read for the next sync, what it read reaches the proxy only when the whole answer is within the limit,
 * and reading a property that was not loaded and synced throws PropertyNotLoaded.
 */
import { excelError } from "./cells";
import type { RequestContext } from "./excel-api";

function propertyNotLoaded(name: string): Error {
  return excelError(
    `The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
    "PropertyNotLoaded",
  );
}

export type LoadOption = string | string[] | { select?: string | string[] } | undefined;

function propList(props: LoadOption): string[] | null {
  if (props === undefined) return null;
  if (typeof props === "string")
    return props
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
  if (Array.isArray(props)) return props;
  if (props && props.select) return propList(props.select);
  return null;
}

export const notFound = () => excelError("The requested resource doesn't exist.", "ItemNotFound");

export abstract class ClientObject {
  _data: Record<string, unknown> | null = null;
  readonly _loaded = new Set<string>();
  constructor(readonly _ctx: RequestContext) {}
  _get(name: string): any {
    if (!this._loaded.has(name)) throw propertyNotLoaded(name);
    return this._data![name];
  }
  /** What a load of `list` (null: every property) reads, at sync. */
  abstract _snapshot(list: string[] | null): Record<string, unknown>;
  get isNullObject(): boolean {
    return this._get("isNullObject");
  }
  load(props?: LoadOption): this {
    const list = propList(props);
    const ctx = this._ctx;
    ctx._queue(() => {
      const snap = this._snapshot(list);
      // What was loaded reaches the add-in only if the whole answer is within the limit.
      ctx._commits.push(() => {
        this._data = Object.assign(this._data || {}, snap);
        for (const key of Object.keys(snap)) this._loaded.add(key);
        this._loaded.add("isNullObject");
      });
    });
    return this;
  }
}
