/** Helpers shared by the sandbox's tests (not a test file itself). */
import type { Sandbox } from "../../sandbox/server";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
}

/** GET (or another method) on the sandbox; key null = no X-API-Key header. */
export async function call(sb: Sandbox, path: string, key: string | null = "demo-enterprise", init: RequestInit = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (key !== null) headers["X-API-Key"] = key;
  const res = await fetch(sb.url + path, { ...init, headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

let serial = 0;

/** A key of the plan with a counter of its own. */
export function freshKey(plan: "free" | "pro" | "business" | "enterprise"): string {
  return `demo-${plan}-t${++serial}`;
}

/** Milliseconds an async function takes. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

/** The CUIs of a list of companies, in its order. */
export const cuisOf = (items: Array<{ cui: number }>) => items.map((i) => i.cui);

/** A copy of `list` in ascending order. */
export const ascending = (list: number[]) => [...list].sort((a, b) => a - b);
