/**
 * Transport over real loopback HTTP (the scripted fixture): key handling, error classes, retries,
 * timeouts, aborts, call records and quota headers.
 */
import {
  ASK_AGAIN,
  AbortedError,
  BadRequestError,
  CreditsExhaustedError,
  FirmaClient,
  InvalidKeyError,
  MissingKeyError,
  NetworkError,
  NotFoundError,
  PlanHistoryError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  type CallRecord,
  type ClientOptions,
} from "../../src/api";
import { spawn, type ChildProcess } from "node:child_process";
import { caught, expectNoKey, KEY, startFixture, type Fixture, type Reply } from "./fixture";

const CUI = 14399840;
const PROFILE = { cui: CUI, denumire: "FIRMA TEST SRL", stare: "ACTIVA" };

let fx: Fixture;
let calls: CallRecord[];
beforeEach(async () => {
  fx = await startFixture(() => ({ body: PROFILE }));
  calls = [];
});
afterEach(() => fx.close());

function client(extra: Partial<ClientOptions> = {}) {
  return new FirmaClient({ baseUrl: fx.url, apiKey: KEY, retryDelayMs: 1, onCall: (c) => calls.push(c), ...extra });
}

/** Serves the replies in order, then repeats the last. */
function script(...replies: Reply[]) {
  fx.route = (_req, n) => replies[Math.min(n, replies.length) - 1];
}

describe("the key", () => {
  test("travels only in the X-API-Key header, never in the URL", async () => {
    await client().getCompany(CUI);
    expect(fx.requests).toHaveLength(1);
    expect(fx.requests[0].headers["x-api-key"]).toBe(KEY);
    expect(fx.requests[0].rawUrl).toBe(`/v4/firme/${CUI}`);
    expect(fx.requests[0].rawUrl).not.toContain(KEY);
    expect(JSON.stringify(calls)).not.toContain(KEY);
  });

  test.each([
    ["undefined", undefined],
    ["null", null],
    ["empty", ""],
    ["blank", "   "],
    ["a function returning null", () => null],
    ["an async function returning undefined", async () => undefined],
  ])("missing (%s) → MissingKeyError without any HTTP call", async (_name, apiKey) => {
    const e = await caught(client({ apiKey: apiKey as never }).getCompany(CUI));
    expect(e).toBeInstanceOf(MissingKeyError);
    expect(e.kind).toBe("missing_key");
    expect(e.status).toBe(0);
    expect(e.message).toBe("API key missing");
    expect(fx.requests).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  test("a function is read at each call", async () => {
    let key: string | null = "demo-first";
    const c = client({ apiKey: () => key });
    await c.getCompany(CUI);
    key = "demo-second";
    await c.getCompany(CUI);
    key = null;
    await expect(c.getCompany(CUI)).rejects.toBeInstanceOf(MissingKeyError);
    expect(fx.requests.map((r) => r.headers["x-api-key"])).toEqual(["demo-first", "demo-second"]);
  });

  test("a key that a header cannot carry → InvalidKeyError without a call, and the key is not shown", async () => {
    const bad = "secret\nkey-ăî";
    const e = await caught(client({ apiKey: bad }).getCompany(CUI));
    expect(e).toBeInstanceOf(InvalidKeyError);
    expect(fx.requests).toHaveLength(0);
    expectNoKey(e, bad);
  });

  test("never appears in an error, even when the service echoes it back", async () => {
    const c = client({ retries: 0 });
    const echoes: Reply[] = [
      { status: 403, body: { error: { code: "invalid_key", message: `Key ${KEY} is invalid` } } },
      { status: 401, text: `no key ${KEY}` },
      { status: 400, body: { message: `bad ${KEY}`, code: KEY } },
      { status: 500, text: `<html><body>crash for ${KEY}</body></html>` },
      { status: 200, text: `not json ${KEY}` },
      { status: 200, body: { cui: KEY, denumire: "x", stare: "ACTIVA" } },
    ];
    for (const reply of echoes) {
      script(reply);
      const e = await caught(c.getCompany(CUI));
      expect(e).toBeInstanceOf(Error);
      expectNoKey(e);
    }
    script({ reset: true });
    expectNoKey(await caught(c.getCompany(CUI)));
    await fx.close();
    const e = await caught(c.getCompany(CUI));
    expect(e).toBeInstanceOf(NetworkError);
    expectNoKey(e);
    fx = await startFixture();
  });
});

describe("the HTTP status decides the error class", () => {
  test.each([
    [401, { error: { code: "missing_key", message: "API key required" } }, MissingKeyError, "missing_key"],
    [403, { error: { code: "invalid_key", message: "Invalid API key" } }, InvalidKeyError, "invalid_key"],
    [403, { error: { code: "plan_history", message: "Year outside plan" } }, PlanHistoryError, "plan_history"],
    [403, { message: "Istoricul planului nu include anul" }, PlanHistoryError, "plan_history"],
    [
      403,
      { eroare: "Planul free acoperă anii financiari de la 2025. / The free plan reaches financial years from 2025 on." },
      PlanHistoryError,
      "plan_history",
    ],
    [403, { eroare: "Cheia API nu este validă. / Invalid API key." }, InvalidKeyError, "invalid_key"],
    [404, { error: { code: "invalid_key", message: "no such company" } }, NotFoundError, "not_found"],
    [400, { error: { code: "bad_request", message: "page must be ≥ 1" } }, BadRequestError, "bad_request"],
    [422, { detail: "unprocessable" }, BadRequestError, "bad_request"],
    [405, {}, BadRequestError, "bad_request"],
    [429, { error: { code: "limit_exceeded", message: "Limit exceeded" } }, CreditsExhaustedError, "credits_exhausted"],
    [500, { error: "boom" }, ServerError, "server"],
    [503, {}, ServerError, "server"],
  ])("%i → %p", async (status, body, cls, kind) => {
    script({ status, body });
    const e = await caught(client({ retries: 0 }).getCompany(CUI));
    expect(e).toBeInstanceOf(cls);
    expect(e.kind).toBe(kind);
    expect(e.status).toBe(status);
    expect(e.endpoint).toBe("company");
    // a short English message, then the service's own in [brackets]: the surfaces say the words, from the kind
    expect(e.message.split(" [")[0]).not.toMatch(/[ăâîșț]| \/ /);
    expectNoKey(e);
  });

  test("an error carries its kind and a short English message (what to do is the surfaces' to say)", async () => {
    script({ status: 403, body: {} });
    const e = await caught(client().getCompany(CUI));
    expect(e.message).toBe("Invalid API key");
    expect(JSON.parse(JSON.stringify(e))).toMatchObject({ name: "InvalidKeyError", kind: "invalid_key", status: 403, retryable: false });
  });
});

describe("error bodies (O6)", () => {
  test.each<[string, Reply, string | null, string | null]>([
    [
      "{ error: { code, message } }",
      { body: { error: { code: "invalid_key", message: "Cheie invalidă" } } },
      "Cheie invalidă",
      "invalid_key",
    ],
    ["{ error: string }", { body: { error: "Key rejected" } }, "Key rejected", null],
    ["{ message, code }", { body: { message: "Nope", code: "E42" } }, "Nope", "E42"],
    ["{ mesaj, cod }", { body: { mesaj: "Refuzat", cod: "refuz" } }, "Refuzat", "refuz"],
    ["{ eroare }", { body: { eroare: "Cheie greșită" } }, "Cheie greșită", null],
    ["{ eroare: { cod, mesaj } }", { body: { eroare: { cod: "x1", mesaj: "Mesaj" } } }, "Mesaj", "x1"],
    ["{ detail, title }", { body: { title: "Forbidden", detail: "Key revoked" } }, "Key revoked", null],
    ["text/plain", { text: "Forbidden: bad key" }, "Forbidden: bad key", null],
    [
      "HTML",
      { text: "<html><head><style>p{}</style></head><body><h1>403</h1><p>Access denied</p></body></html>" },
      "403 Access denied",
      null,
    ],
    ["empty", { text: "" }, null, null],
    ["a JSON array", { body: [1, 2] }, null, null],
    ["JSON null", { text: "null" }, null, null],
  ])("%s", async (_name, reply, message, code) => {
    script({ status: 403, ...reply });
    const e = await caught(client().getCompany(CUI));
    expect(e).toBeInstanceOf(InvalidKeyError);
    expect(e.serviceMessage).toBe(message);
    expect(e.serviceCode).toBe(code);
    if (message) expect(e.message).toContain(message);
  });

  test("a long text body is cut to 200 characters, markup removed", async () => {
    script({ status: 502, text: `<div>${"x".repeat(500)}</div>` });
    const e = await caught(client({ retries: 0 }).getCompany(CUI));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.serviceMessage).toHaveLength(200);
    expect(e.serviceMessage).not.toContain("<");
  });
});

describe("retries", () => {
  test("5xx is retried with backoff, then the answer is used", async () => {
    script({ status: 500 }, { status: 503, text: "busy" }, { body: PROFILE });
    const p = await client({ retries: 2 }).getCompany(CUI);
    expect(p.cui).toBe(CUI);
    expect(fx.requests).toHaveLength(3);
    expect(calls.map((c) => [c.attempt, c.status, c.credited, c.errorKind])).toEqual([
      [1, 500, false, "server"],
      [2, 503, false, "server"],
      [3, 200, true, undefined],
    ]);
  });

  test("a retry the engine refuses ends the call with the last failure; with the credits spent, with that", async () => {
    script({ status: 503, body: {} });
    const refuse = (e: Error) => (info: { attempt: number }) => {
      if (info.attempt > 1) throw e;
    };
    const budget = await caught(client({ beforeCall: refuse(new Error("budget reached")) }).getCompany(CUI));
    expect(budget).toBeInstanceOf(ServerError); // what the service did says more than the budget
    const spent = await caught(client({ beforeCall: refuse(new CreditsExhaustedError({ status: 0 })) }).getCompany(CUI));
    expect(spent).toBeInstanceOf(CreditsExhaustedError); // a refresh will not help before the period turns over
    expect(fx.requests).toHaveLength(2); // no retry was sent
  });

  test("a retry the engine holds: asked again after ASK_AGAIN, sent once let go, refused when the hold fails, never sent past the call's time", async () => {
    const retryOf = (hold: (info: { attempt: number }) => Promise<unknown>) => (info: { attempt: number }) =>
      info.attempt > 1 ? hold(info) : undefined;
    // asked again, then let go: the retry is sent once, and answered
    script({ status: 503, body: {} }, { body: PROFILE });
    const asked: number[] = [];
    let letGo: (v: unknown) => void = () => undefined;
    const answer = client({
      beforeCall: retryOf((info) => {
        asked.push(info.attempt);
        return new Promise((r) => (letGo = r));
      }),
    }).getCompany(CUI);
    while (asked.length < 1) await new Promise((r) => setTimeout(r, 5));
    expect(fx.requests).toHaveLength(1); // held
    letGo(ASK_AGAIN);
    while (asked.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(asked).toEqual([2, 2]);
    expect(fx.requests).toHaveLength(1); // held again
    letGo(undefined);
    expect((await answer).cui).toBe(CUI);
    expect(fx.requests).toHaveLength(2);

    // a hold that fails refuses the retry: the call ends with what the service answered
    script({ status: 503, body: {} });
    const refused = await caught(client({ beforeCall: retryOf(() => Promise.reject(new Error("budget reached"))) }).getCompany(CUI));
    expect(refused).toBeInstanceOf(ServerError);
    expect(fx.requests).toHaveLength(3);

    // held past the call's total time: never sent
    const started = Date.now();
    const late = await caught(client({ totalTimeoutMs: 300, beforeCall: retryOf(() => new Promise(() => undefined)) }).getCompany(CUI));
    expect(late).toBeInstanceOf(ServerError);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fx.requests).toHaveLength(4);
  });

  test("hooks that hold with promises already settled keep neither the call nor the thread: an async hook's attempts are sent, ASK_AGAIN each time ends at the call's time", async () => {
    script({ status: 503, body: {} }, { body: PROFILE });
    expect((await client({ beforeCall: async () => undefined }).getCompany(CUI)).cui).toBe(CUI);
    expect(fx.requests).toHaveLength(2);

    script({ status: 503, body: {} });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const e = await caught(
        client({ totalTimeoutMs: 300, beforeCall: (i) => (i.attempt > 1 ? Promise.resolve(ASK_AGAIN) : undefined) }).getCompany(CUI),
      );
      expect(e).toBeInstanceOf(ServerError);
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThan(10); // the timers ran while the hook was asked again and again
    expect(fx.requests).toHaveLength(3);
  });

  test("a persistent 5xx ends with ServerError after 1 + retries attempts", async () => {
    script({ status: 502 });
    const e = await caught(client({ retries: 3 }).getCompany(CUI));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.retryable).toBe(true);
    expect(fx.requests).toHaveLength(4);
  });

  test("the retries option can be overridden per call", async () => {
    script({ status: 500 });
    await expect(client().getCompany(CUI, { retries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(fx.requests).toHaveLength(1);
  });

  test.each([400, 401, 403, 404, 409, 422, 429])("%i is never retried", async (status) => {
    script({ status, body: {} });
    await expect(client({ retries: 5 }).getCompany(CUI)).rejects.toHaveProperty("status", status);
    expect(fx.requests).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  test("a 429 that says rate_limited (a firm's server's per-person limit) is a wait, not credits spent: sent again after its Retry-After, without using a retry", async () => {
    const limited = {
      status: 429,
      body: { error: { code: "rate_limited", message: "Prea multe cereri" } },
      headers: { "Retry-After": "0" },
    };
    script(limited, limited, limited, { body: PROFILE });
    await expect(client({ retries: 0 }).getCompany(CUI)).resolves.toMatchObject({ cui: CUI });
    expect(fx.requests).toHaveLength(4);
    // none charged, each one known for a rate limit (the engine does not take it for credits spent)
    expect(calls.map((c) => [c.status, c.charged, c.rateLimited ?? false])).toEqual([
      [429, false, true],
      [429, false, true],
      [429, false, true],
      [200, true, false],
    ]);
  });

  test("a rate limit waits its whole Retry-After before the next attempt", async () => {
    script({ status: 429, body: { error: { code: "rate_limited", message: "x" } }, headers: { "Retry-After": "1" } }, { body: PROFILE });
    const started = Date.now();
    await expect(client().getCompany(CUI)).resolves.toMatchObject({ cui: CUI });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(fx.requests).toHaveLength(2);
  });

  test("a rate limit longer than the call's time left ends the call with the rate limit, not credits spent", async () => {
    script({ status: 429, body: { error: { code: "rate_limited", message: "Prea multe cereri" } }, headers: { "Retry-After": "5" } });
    const started = Date.now();
    const e = await caught(client({ totalTimeoutMs: 1_000 }).getCompany(CUI));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(e).toBeInstanceOf(ServerError);
    expect(e).not.toBeInstanceOf(CreditsExhaustedError);
    expect(e).toMatchObject({ status: 429, serviceCode: "rate_limited", retryable: true });
    expect(fx.requests).toHaveLength(1);
  });

  test("a dropped connection is retried once; the dropped attempt may have been charged", async () => {
    script({ reset: true }, { body: PROFILE });
    await expect(client().getCompany(CUI)).resolves.toMatchObject({ cui: CUI });
    expect(calls.map((c) => [c.status, c.errorKind, c.credited, c.charged])).toEqual([
      [0, "network", false, true],
      [200, undefined, true, true],
    ]);
  });

  test("connections dropped every time → NetworkError (status 0, cause kept)", async () => {
    script({ reset: true });
    const e = await caught(client().getCompany(CUI));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.status).toBe(0);
    expect(e.cause).toBeDefined();
    expect(e.message).toBe("The service cannot be reached");
    expect(fx.requests).toHaveLength(2); // one retry by default
  });

  test("a refused connection → NetworkError", async () => {
    const url = fx.url;
    await fx.close();
    const e = await caught(new FirmaClient({ baseUrl: url, apiKey: KEY, retries: 1, retryDelayMs: 1 }).counties());
    expect(e).toBeInstanceOf(NetworkError);
    fx = await startFixture();
  });

  test("malformed JSON on 200 is retried once, then a ResponseShapeError; each attempt counted as charged", async () => {
    script({ text: '{"cui": 14399840, "denumire": ' });
    const e = await caught(client().getCompany(CUI));
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect(e.message).toMatch(/malformed JSON/);
    expect(fx.requests).toHaveLength(2);
    expect(calls[0]).toMatchObject({ status: 200, credited: true, charged: true, errorKind: "shape" });
  });

  test("malformed JSON once, then a good answer: the retry fixes it", async () => {
    script({ text: '{"cui": 1' }, { body: PROFILE });
    await expect(client().getCompany(CUI)).resolves.toMatchObject({ cui: CUI });
    expect(fx.requests).toHaveLength(2);
  });

  test("onAnswer is told once, when an answer is usable and recorded: not for the malformed attempt a retry replaces, nor for a failure", async () => {
    script({ text: '{"cui": 1' }, { body: PROFILE });
    const told: number[] = [];
    await client().getCompany(CUI, { onAnswer: () => told.push(calls.length) });
    // once, after both attempts were recorded (the meter and the gate know the credit first)
    expect(told).toEqual([2]);

    script({ status: 500, body: {} });
    const failed: number[] = [];
    await expect(client({ retries: 1 }).getCompany(CUI, { onAnswer: () => failed.push(1) })).rejects.toBeInstanceOf(ServerError);
    expect(failed).toEqual([]);
  });

  test("a key read without waiting reaches fetch() within the call itself: a batch asked while Excel still invokes cells starts its request then", async () => {
    script({ body: [PROFILE] });
    const started: string[] = [];
    const spy = (input: RequestInfo | URL, init?: RequestInit) => {
      started.push(String(input));
      return fetch(input, init);
    };
    const answer = client({ fetch: spy }).batchIdentification([CUI]);
    expect(started).toHaveLength(1); // before anything was awaited
    await expect(answer).resolves.toHaveLength(1);
    // a key that has to be awaited: the request starts once it is there
    started.length = 0;
    const later = client({ fetch: spy, apiKey: () => Promise.resolve(KEY) }).batchIdentification([CUI]);
    expect(started).toHaveLength(0);
    await expect(later).resolves.toHaveLength(1);
    expect(started).toHaveLength(1);
  });

  test("the first attempt is made at once, the retries by the backoff: retries 2 → three attempts in all, then the failure", async () => {
    script({ status: 500, body: {} });
    await expect(client({ retries: 2 }).getCompany(CUI)).rejects.toBeInstanceOf(ServerError);
    expect(fx.requests).toHaveLength(3);
    const n = fx.requests.length;
    const replies: Reply[] = [{ status: 500, body: {} }, { status: 500, body: {} }, { body: PROFILE }];
    fx.route = (_req, k) => replies[Math.min(k - n, replies.length) - 1];
    await expect(client({ retries: 2 }).getCompany(CUI)).resolves.toMatchObject({ cui: CUI });
    expect(fx.requests.length - n).toBe(3);
    script({ status: 404, body: {} });
    const m = fx.requests.length;
    await expect(client({ retries: 2 }).getCompany(CUI)).rejects.toBeInstanceOf(NotFoundError);
    expect(fx.requests.length - m).toBe(1); // not retried
  });

  test("an onAnswer that throws does not break the call; one that is not a function is refused before any call", async () => {
    script({ body: PROFILE });
    const hook = () => {
      throw new Error("hook");
    };
    await expect(client().getCompany(CUI, { onAnswer: hook })).resolves.toMatchObject({ cui: CUI });
    const n = fx.requests.length;
    await expect(client().getCompany(CUI, { onAnswer: 5 as unknown as () => void })).rejects.toThrow(/onAnswer/);
    expect(fx.requests).toHaveLength(n);
  });

  test("an empty 200 body is a ResponseShapeError", async () => {
    script({ text: "" });
    await expect(client().getCompany(CUI)).rejects.toBeInstanceOf(ResponseShapeError);
  });

  test("an unknown error thrown by an injected fetch is wrapped, not retried", async () => {
    const e = await caught(client({ fetch: async () => Promise.reject(new RangeError("weird")) }).getCompany(CUI));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.retryable).toBe(false);
    expect(calls).toHaveLength(1);
  });
});

describe("timeouts", () => {
  test("an attempt that takes too long → retried within the call's total time, then TimeoutError", async () => {
    script({ delayMs: 2000, body: PROFILE });
    const started = Date.now();
    const e = await caught(client({ timeoutMs: 150, retries: 1 }).getCompany(CUI));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.kind).toBe("timeout");
    expect(e.message).toBe("The service did not answer within 0.2 s");
    expect(Date.now() - started).toBeLessThan(1500);
    expect(fx.requests).toHaveLength(2);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ status: 0, credited: false, charged: true, errorKind: "timeout", attempt: 1 });
    expect(calls[0].durationMs).toBeGreaterThanOrEqual(140);
  });

  test("a body that stalls after the head times out too (the answer was given: counted as credited)", async () => {
    script({ stall: true, body: PROFILE });
    const e = await caught(client({ timeoutMs: 150 }).getCompany(CUI));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(calls[0]).toMatchObject({ status: 200, credited: true, errorKind: "timeout" });
  });

  test("the per-call timeout overrides the client's", async () => {
    script({ delayMs: 400, body: PROFILE });
    await expect(client({ timeoutMs: 100 }).getCompany(CUI, { timeoutMs: 2000 })).resolves.toMatchObject({ cui: CUI });
  });

  test("the total timeout spans attempts", async () => {
    script({ delayMs: 150, status: 500 });
    const started = Date.now();
    const e = await caught(client({ timeoutMs: 5000, totalTimeoutMs: 250, retries: 10 }).getCompany(CUI));
    const took = Date.now() - started;
    expect(e).toBeInstanceOf(TimeoutError);
    expect(took).toBeLessThan(1000);
    expect(fx.requests.length).toBeLessThanOrEqual(2);
  });

  /**
   * A call of 200 ms in all whose every answer is followed by 300 ms in which the event loop is held
   * (as on a loaded machine): a 20 ms wait after the answer (the backoff's, or a rate limit's pause)
   * ends past the call's time, and the attempt after it makes no call. What the call ended with.
   */
  const lateTimerCall = () => {
    const hold = () =>
      setImmediate(() => {
        const end = Date.now() + 300;
        while (Date.now() < end);
      });
    return caught(
      client({ timeoutMs: 5000, totalTimeoutMs: 200, retries: 3, retryDelayMs: 20, onCall: (c) => (calls.push(c), hold()) }).getCompany(
        CUI,
      ),
    );
  };

  test("a retry whose wait ends past the total time (a late timer on a busy machine) ends the call with what the service answered, not a timeout", async () => {
    script({ status: 503 });
    const e = await lateTimerCall();
    expect(fx.requests).toHaveLength(1);
    expect(e).not.toBeInstanceOf(TimeoutError);
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ status: 503 });
  });

  test("a rate limit's pause that ends past the total time (a late timer) ends the call with the 429, not a timeout", async () => {
    script({ status: 429, body: { error: { code: "rate_limited", message: "Prea multe cereri" } }, headers: { "Retry-After": "0" } });
    const e = await lateTimerCall();
    expect(fx.requests).toHaveLength(1);
    expect(e).not.toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ status: 429, serviceCode: "rate_limited" });
  });

  test("no timer is left behind once a call settles", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const c = client({ timeoutMs: 60_000, totalTimeoutMs: 60_000 });
    await c.getCompany(CUI);
    script({ status: 404 });
    await caught(c.getCompany(CUI));
    script({ status: 500 });
    await caught(c.getCompany(CUI, { retries: 1 }));
    expect(timers()).toBe(before);
  });
});

/**
 * The deadline is the service's time, not this thread's: a server in another process answers in
 * 30 ms while this thread stays busy for 400 ms (as it does while Excel invokes a column of cells),
 * with a 200 ms timeout. In one process the server could not answer while the thread is busy.
 */
const SLOW_KEY = "test-key-SLOW-9c1d";
describe("a busy thread does not time out an answer the service gave in time", () => {
  let server: ChildProcess;
  let url = "";
  beforeAll(async () => {
    // 30 ms an answer; 1.5 s for the key SLOW_KEY (the service slower than the timeout, by far: a timer
    // that a busy machine fires late must still find no answer there)
    const code = `require("http").createServer((q, s) => setTimeout(() => { s.setHeader("content-type", "application/json"); s.end(JSON.stringify(${JSON.stringify(PROFILE)})); }, q.headers["x-api-key"] === ${JSON.stringify(SLOW_KEY)} ? 1500 : 30)).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`;
    server = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<string>((resolve) => server.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
    url = `http://127.0.0.1:${port}`;
    await new FirmaClient({ baseUrl: url, apiKey: KEY }).getCompany(CUI); // fetch loaded, connection known
  });
  afterAll(() => server.kill());
  const busy = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until);
  };

  test("busy in the task that started the request: the timer starts when that task ends", async () => {
    const records: CallRecord[] = [];
    const c = new FirmaClient({ baseUrl: url, apiKey: KEY, timeoutMs: 200, retries: 0, onCall: (r) => records.push(r) });
    const answer = c.getCompany(CUI);
    busy(400);
    await expect(answer).resolves.toMatchObject({ cui: CUI });
    expect(records).toMatchObject([{ status: 200, attempt: 1 }]);
  });

  test("busy later, past the deadline: the answer that waited is read before the timer aborts", async () => {
    const records: CallRecord[] = [];
    const c = new FirmaClient({ baseUrl: url, apiKey: KEY, timeoutMs: 200, retries: 0, onCall: (r) => records.push(r) });
    const answer = c.getCompany(CUI);
    await new Promise((r) => setTimeout(r, 5)); // the timer is armed
    await new Promise((r) => setImmediate(r)); // busy after this turn's I/O: the next turn runs timers before reading sockets
    busy(800); // long enough for the other process to answer meanwhile on a loaded machine (as the server's test)
    await expect(answer).resolves.toMatchObject({ cui: CUI });
    expect(records).toMatchObject([{ status: 200, attempt: 1 }]);
  });

  test("a service slower than the timeout still times out, busy or not", async () => {
    const c = new FirmaClient({ baseUrl: url, apiKey: SLOW_KEY, timeoutMs: 100, retries: 0 });
    const e = await caught(c.getCompany(CUI));
    expect(e).toBeInstanceOf(TimeoutError);
  });
});

describe("aborts", () => {
  test("an already aborted signal → AbortedError without a call", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(client().getCompany(CUI, { signal: ac.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(fx.requests).toHaveLength(0);
  });

  test("aborting during a call → AbortedError at once, not retried", async () => {
    script({ delayMs: 3000, body: PROFILE });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = Date.now();
    const e = await caught(client().getCompany(CUI, { signal: ac.signal }));
    expect(e).toBeInstanceOf(AbortedError);
    expect(e.message).toBe("Request cancelled");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fx.requests).toHaveLength(1);
    expect(calls[0]).toMatchObject({ status: 0, errorKind: "aborted" });
  });

  test("aborting after a failed attempt stops the retries", async () => {
    script({ status: 500 });
    const ac = new AbortController();
    const c = client({ retries: 5, onCall: () => ac.abort() });
    await expect(c.getCompany(CUI, { signal: ac.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(fx.requests).toHaveLength(1);
  });

  test("aborting during the backoff wait ends the call at once", async () => {
    script({ status: 500 });
    const ac = new AbortController();
    // The backoff's full jitter fixed at half of 5 s: the abort lands in a 2.5 s wait, and a call that
    // waited it out would take past the bound a loaded machine needs, every time.
    const random = jest.spyOn(Math, "random").mockReturnValue(0.5);
    try {
      const c = client({ retries: 5, retryDelayMs: 5_000, totalTimeoutMs: 60_000, onCall: () => setTimeout(() => ac.abort(), 20) });
      const started = Date.now();
      await expect(c.getCompany(CUI, { signal: ac.signal })).rejects.toBeInstanceOf(AbortedError);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      random.mockRestore();
    }
    expect(fx.requests.length).toBeLessThanOrEqual(2);
  });
});

describe("call records and quota (O20, O23)", () => {
  test("each attempt is recorded with endpoint, path, query and batch size", async () => {
    script({ body: [], headers: { "X-Plan": "Business", "X-Credits-Remaining": "19990" } });
    const c = client();
    await c.batchIdentification([CUI, 18547290], { include: ["judet", "adresa"] });
    expect(calls).toEqual([
      {
        endpoint: "batch",
        path: "/v4/firme/batch",
        query: "cui=14399840,18547290&include=judet,adresa",
        status: 200,
        credited: true,
        charged: true,
        durationMs: expect.any(Number),
        attempt: 1,
        id: expect.any(Number),
        quota: { plan: "business", remaining: 19990, limit: null },
        cuiCount: 2,
      },
    ]);
    expect(fx.requests[0].query.get("cui")).toBe("14399840,18547290");
  });

  test("a firm's server's credit headers are the person's budget (X-Credits-Scope), and its 429's code names whose limit; the same code from an answer without that scope is the plan's", async () => {
    const FIRM = { "X-Credits-Remaining": "0", "X-Credits-Limit": "5", "X-Credits-Scope": "firm-budget" };
    script({ body: PROFILE, headers: { ...FIRM, "X-Credits-Remaining": "4" } });
    await client().getCompany(CUI);
    expect(calls[0].quota).toEqual({ plan: null, remaining: 4, limit: 5, scope: "firm-budget" });
    script({
      status: 429,
      headers: FIRM,
      body: { error: { code: "budget_exhausted", message: "Your budget of 5 credits a month is spent" } },
    });
    expect(await caught(client().getCompany(CUI))).toMatchObject({ kind: "credits_exhausted", firmLimit: "budget" });
    expect(calls[1]).toMatchObject({ status: 429, firmLimit: "budget" });
    script({ status: 429, headers: FIRM, body: { error: { code: "day_limit" } } });
    expect(await caught(client().getCompany(CUI))).toMatchObject({ firmLimit: "day" });
    expect(calls[2]).toMatchObject({ firmLimit: "day" });
    // The service itself, with the same words: its plan's limit, not a firm's.
    script({ status: 429, headers: { "X-Credits-Remaining": "0" }, body: { error: { code: "day_limit" } } });
    expect(await caught(client().getCompany(CUI))).toMatchObject({ kind: "credits_exhausted", firmLimit: null });
    expect(calls[3]).not.toHaveProperty("firmLimit");
    // A firm's server's 429 with a code it does not define: no limit named.
    script({ status: 429, headers: FIRM, body: { error: { code: "plan_stopped" } } });
    expect(await caught(client().getCompany(CUI))).toMatchObject({ firmLimit: null });
  });

  test("lastQuota follows the latest answer that carried quota headers", async () => {
    const c = client();
    expect(c.lastQuota).toEqual({ plan: null, remaining: null, limit: null });
    script({ body: PROFILE, headers: { "X-Plan": "pro", "X-Credits-Remaining": "3999", "X-Credits-Limit": "4000" } });
    await c.getCompany(CUI);
    expect(c.lastQuota).toEqual({ plan: "pro", remaining: 3999, limit: 4000 });
    script({ body: PROFILE });
    await c.getCompany(CUI);
    expect(c.lastQuota).toEqual({ plan: "pro", remaining: 3999, limit: 4000 });
    script({ status: 429, body: {}, headers: { "X-Plan": "pro", "X-Credits-Remaining": "0" } });
    await caught(c.getCompany(CUI));
    expect(c.lastQuota).toEqual({ plan: "pro", remaining: 0, limit: null });
    script({ body: PROFILE, headers: { "X-Plan": "gold" } });
    await c.getCompany(CUI);
    expect(calls.at(-1)?.quota).toBeUndefined();
  });

  test.each([
    [200, true],
    [404, true],
    [400, false],
    [401, false],
    [403, false],
    [429, false],
    [500, false],
  ])("status %i → credited %p", async (status, credited) => {
    script({ status, body: status === 200 ? PROFILE : {} });
    await client({ retries: 0 })
      .getCompany(CUI)
      .catch(() => undefined);
    expect(calls[0]).toMatchObject({ status, credited });
  });

  test("a hook that throws does not break the call", async () => {
    const c = client({
      onCall: () => {
        throw new Error("meter broke");
      },
    });
    await expect(c.getCompany(CUI)).resolves.toMatchObject({ cui: CUI });
  });
});
