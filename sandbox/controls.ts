/**
 * Test controls under /__sandbox/ (not part of the service): no key, never counted, never logged.
 * Answers are JSON; see README.md for the list.
 */
import { IncomingMessage } from "http";
import { mergeConfig, resolveFaults, SandboxConfig } from "./config";
import { RequestLog } from "./log";
import { Accounts, PLANS } from "./plans";
import { missingCuis, sampleCuis } from "./space";

export interface ControlTarget {
  config: SandboxConfig;
  readonly accounts: Accounts;
  readonly log: RequestLog;
  reset(key?: string): void;
}

export interface ControlAnswer {
  status: number;
  body: unknown;
}

const ROUTES = [
  "GET /__sandbox/usage[?key=K]",
  "POST /__sandbox/reset[?key=K]",
  "GET /__sandbox/config",
  "PUT|POST /__sandbox/config (JSON, merged)",
  "GET /__sandbox/requests[?key=K][&last=N]",
  "DELETE /__sandbox/requests",
  "GET /__sandbox/cuis?kind=valid|missing&count=N&offset=M",
];
const MAX_CUIS = 200_000;
const MAX_BODY = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY) reject(new Error("body too large"));
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function bad(message: string): ControlAnswer {
  return { status: 400, body: { error: { code: "bad_request", message } } };
}

function count(text: string | null, fallback: number): number | null {
  if (text === null) return fallback;
  return /^\d+$/.test(text) ? Number(text) : null;
}

async function setConfig(req: IncomingMessage, target: ControlTarget): Promise<ControlAnswer> {
  let patch: unknown;
  try {
    patch = JSON.parse(await readBody(req));
  } catch {
    return bad("the body must be a JSON object of settings");
  }
  const merged = mergeConfig(target.config, patch);
  if ("errors" in merged) {
    return {
      status: 400,
      body: { error: { code: "bad_request", message: merged.errors.join("; ") } },
    };
  }
  target.config = merged.config;
  return { status: 200, body: { ...merged.config, faults: resolveFaults(merged.config.faults) } };
}

function cuis(query: URLSearchParams): ControlAnswer {
  const kind = query.get("kind") ?? "valid";
  const n = count(query.get("count"), 10);
  const offset = count(query.get("offset"), 0);
  if (kind !== "valid" && kind !== "missing") return bad("kind is valid or missing");
  if (n === null || n > MAX_CUIS || offset === null) {
    return bad(`count is 0 to ${MAX_CUIS}, offset a whole number`);
  }
  return {
    status: 200,
    body: kind === "valid" ? sampleCuis(n, offset) : missingCuis(n + offset).slice(offset),
  };
}

export async function control(req: IncomingMessage, url: URL, target: ControlTarget): Promise<ControlAnswer> {
  const route = `${req.method} ${url.pathname.replace(/\/+$/, "")}`;
  const key = url.searchParams.get("key") ?? undefined;
  switch (route) {
    case "GET /__sandbox":
      return { status: 200, body: { routes: ROUTES } };
    case "GET /__sandbox/usage": {
      const keys = key !== undefined ? [key] : [...new Set([...Object.keys(PLANS).map((p) => `demo-${p}`), ...target.accounts.keys()])];
      const usages = keys.map((k) => target.accounts.usage(k));
      return { status: 200, body: key !== undefined ? usages[0] : usages };
    }
    case "POST /__sandbox/reset":
      target.reset(key);
      return { status: 200, body: { reset: key ?? "all" } };
    case "GET /__sandbox/config":
      return {
        status: 200,
        body: { ...target.config, faults: resolveFaults(target.config.faults) },
      };
    case "PUT /__sandbox/config":
    case "POST /__sandbox/config":
      return setConfig(req, target);
    case "GET /__sandbox/requests": {
      const last = count(url.searchParams.get("last"), Infinity);
      if (last === null) return bad("last is a whole number");
      const list = target.log.list(key);
      return { status: 200, body: last >= list.length ? list : list.slice(list.length - last) };
    }
    case "DELETE /__sandbox/requests":
      return { status: 200, body: { cleared: target.log.clear() } };
    case "GET /__sandbox/cuis":
      return cuis(url.searchParams);
    default:
      return {
        status: 404,
        body: {
          error: { code: "not_found", message: `unknown control; try: ${ROUTES.join(", ")}` },
        },
      };
  }
}
