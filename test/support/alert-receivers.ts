/**
 * What receives the watch's alerts in the tests, on loopback: a real SMTP server (smtp-server) that
 * parses each message it takes (mailparser), or refuses them with a reply code; and a real HTTP
 * receiver of webhooks that checks each one's signature as docs/deploy.md tells a receiver to.
 */
import { createHmac, timingSafeEqual } from "crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "http";
import type { AddressInfo } from "net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface Mailbox {
  port: number;
  url: string;
  /** The messages taken, parsed, with the envelope's recipients. */
  messages: Array<{ mail: ParsedMail; rcpt: string[] }>;
  /** A reply code every message gets instead of being taken (550…), or null to take them. */
  refuse: number | null;
  /** Resolves at the next message taken. */
  next(): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 (`port`: a given one, to stand in again for one that was stopped). */
export async function startMailbox(port = 0): Promise<Mailbox> {
  let waiting: Array<(m: ParsedMail) => void> = [];
  const box: Mailbox = {
    port: 0,
    url: "",
    messages: [],
    refuse: null,
    next: () => new Promise((done) => waiting.push(done)),
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (box.refuse !== null) {
            const e = Object.assign(new Error("refused by the test's server"), { responseCode: box.refuse });
            return callback(e);
          }
          box.messages.push({ mail, rcpt: session.envelope.rcptTo.map((r) => r.address) });
          const w = waiting;
          waiting = [];
          for (const f of w) f(mail);
          callback();
        },
        (e: Error) => callback(e),
      );
    },
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done());
  });
  box.port = (server.server.address() as AddressInfo).port;
  box.url = `smtp://127.0.0.1:${box.port}`;
  return box;
}

export interface HookCall {
  body: string;
  json: { alert: number; list: string; changes: Array<{ id: number; cui: number; field: string; before: unknown; after: unknown }> };
  /** Whether the signature and the timestamp check out with the receiver's secret. */
  verified: boolean;
  timestamp: number;
}

export interface HookReceiver {
  url: string;
  calls: HookCall[];
  /** The status to answer with (200…), or "hang" to never answer. */
  answer: number | "hang";
  close(): Promise<void>;
}

/** How a receiver checks a webhook: HMAC-SHA256 of `<timestamp>.<body>`, compared in constant time, timestamp within 5 minutes. */
export function verify(secret: string, req: IncomingMessage, body: string, now = Date.now()): boolean {
  const ts = Number(req.headers["x-firma-timestamp"]);
  const got = String(req.headers["x-firma-signature"] ?? "");
  const want = `sha256=${createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex")}`;
  return (
    Number.isInteger(ts) &&
    Math.abs(now / 1000 - ts) < 300 &&
    got.length === want.length &&
    timingSafeEqual(Buffer.from(got), Buffer.from(want))
  );
}

/** An HTTP receiver on 127.0.0.1 that records each webhook, verified with `secret`. */
export async function startHookReceiver(secret: string, clock: () => number = Date.now): Promise<HookReceiver> {
  const hanging: ServerResponse[] = [];
  const r: HookReceiver = {
    url: "",
    calls: [],
    answer: 200,
    close: () =>
      new Promise((done) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      r.calls.push({
        body,
        json: JSON.parse(body),
        verified: verify(secret, req, body, clock()),
        timestamp: Number(req.headers["x-firma-timestamp"]),
      });
      if (r.answer === "hang") return void hanging.push(res);
      res.writeHead(r.answer).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}
