/** The log of recent /v4 calls (controls and preflights are not logged). */
import type { EndpointName } from "./api";

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The query string, without "?". */
  query: string;
  /** The status answered; 0 when the connection was dropped (fault "reset"). */
  status: number;
  /** The call was charged a credit (the key's usage `total` counts these, without the log's limit). */
  credited: boolean;
  /** The X-API-Key sent, or null. */
  key: string | null;
  /** CUIs named by the call: 1 for single-company endpoints, the list's entries for batches, else 0. */
  cuiCount: number;
  endpoint: EndpointName | null;
  /** The injected fault, if any: "error", "reset", "malformed", "rateLimit", "busy". */
  fault?: string;
  /** Batch answers: items the batchStranger and batchConflict faults added (absent when none). */
  forged?: number;
  /** When the call was answered (ms since the epoch, sandbox clock). */
  at: number;
}

export const LOG_SIZE = 50_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > LOG_SIZE) this.entries.shift();
  }

  /** A copy of the log, oldest first, optionally only one key's calls. */
  list(key?: string): RequestLogEntry[] {
    return key === undefined ? this.entries.slice() : this.entries.filter((e) => e.key === key);
  }

  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }
}
