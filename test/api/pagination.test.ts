/** Pagination (O9) over the fixture: explicit limit/page, every stop rule, the safety cap, early exit. */
import { FirmaClient, type ClientOptions, type SearchItem } from "../../src/api";
import { cuis, KEY, startFixture, type Fixture, type Seen } from "./fixture";

const ALL = cuis(250).map((cui, i) => ({ cui, denumire: `FIRMA ${i}` }));

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture();
});
afterEach(() => fx.close());

const client = (extra: Partial<ClientOptions> = {}) => new FirmaClient({ baseUrl: fx.url, apiKey: KEY, ...extra });

/** Serves `total` items in pages; `envelope` decides what the answer says about the list. */
function list(total: number, envelope: (items: object[], page: number, limit: number) => unknown, serveLimit?: number) {
  fx.route = (req: Seen) => {
    const page = Number(req.query.get("page"));
    const limit = serveLimit ?? Number(req.query.get("limit"));
    const items = ALL.slice(0, total).slice((page - 1) * limit, page * limit);
    return { body: envelope(items, page, limit) };
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const pagesAsked = () => fx.requests.map((r) => r.search);

test("asks limit and page explicitly: 100 and 1 unless told", async () => {
  list(3, (items) => ({ data: items }));
  await collect(client().search({ q: "alfa", judet: "CJ" }));
  expect(pagesAsked()).toEqual(["q=alfa&judet=CJ&limit=100&page=1"]);
});

test("stops when `pages` says the end is reached", async () => {
  list(5, (items, page, limit) => ({ data: items, pagination: { page, limit, total: 5, pages: 3 } }));
  const pages = await collect(client().searchPages({ limit: 2 }));
  expect(pages.map((p) => [p.page, p.items.length, p.total, p.pages])).toEqual([
    [1, 2, 5, 3],
    [2, 2, 5, 3],
    [3, 1, 5, 3],
  ]);
  expect(pagesAsked()).toEqual(["limit=2&page=1", "limit=2&page=2", "limit=2&page=3"]);
});

test("stops when `total` says the end is reached (a full last page: no extra call)", async () => {
  list(4, (items) => ({ results: items, total: 4 }));
  const items = await collect(client().search({ limit: 2 }));
  expect(items).toHaveLength(4);
  expect(fx.requests).toHaveLength(2);
});

test("without facts: stops on a page shorter than the size asked", async () => {
  list(5, (items) => items);
  expect(await collect(client().search({ limit: 2 }))).toHaveLength(5);
  expect(fx.requests).toHaveLength(3);
});

test("without facts: stops on an empty page", async () => {
  list(4, (items) => items);
  expect(await collect(client().search({ limit: 2 }))).toHaveLength(4);
  expect(pagesAsked()).toEqual(["limit=2&page=1", "limit=2&page=2", "limit=2&page=3"]);
});

test("an empty page ends the list even if `pages` says more", async () => {
  list(2, (items) => ({ data: items, pagination: { pages: 10 } }));
  expect(await collect(client().search({ limit: 2 }))).toHaveLength(2);
  expect(fx.requests).toHaveLength(2);
});

test("a page size the service reported wins over the size asked", async () => {
  list(45, (items, page, limit) => ({ data: items, pagination: { page, limit } }), 20);
  const pages = await collect(client().searchPages({ limit: 100 }));
  expect(pages.map((p) => [p.items.length, p.limit])).toEqual([
    [20, 20],
    [20, 20],
    [5, 20],
  ]);
});

test("a service that silently serves fewer than asked, saying nothing, ends after its first page", async () => {
  list(45, (items) => ({ data: items }), 20);
  expect(await collect(client().search())).toHaveLength(20);
  expect(fx.requests).toHaveLength(1);
});

test("the first page can be chosen", async () => {
  list(5, (items) => ({ data: items, total: 5 }));
  const pages = await collect(client().searchPages({ limit: 2, page: 2 }));
  expect(pages.map((p) => p.page)).toEqual([2, 3]);
  expect(pages.flatMap((p) => p.items.map((i) => i.cui))).toEqual(ALL.slice(2, 5).map((i) => i.cui));
});

test("maxPages ends a runaway list", async () => {
  fx.route = () => ({ body: { data: ALL.slice(0, 2) } }); // always full, never ends
  expect(await collect(client({ maxPages: 5 }).searchPages({ limit: 2 }))).toHaveLength(5);
  expect(fx.requests).toHaveLength(5);
});

test("breaking out of the loop stops fetching", async () => {
  list(250, (items, page, limit) => ({ data: items, pagination: { page, limit, total: 250, pages: 25 } }));
  const seen: SearchItem[] = [];
  for await (const item of client().search({ limit: 10 })) {
    seen.push(item);
    if (seen.length === 15) break;
  }
  await new Promise((r) => setTimeout(r, 50));
  expect(fx.requests).toHaveLength(2);

  fx.requests.length = 0;
  for await (const page of client().searchPages({ limit: 10 })) {
    expect(page.items).toHaveLength(10);
    break;
  }
  await new Promise((r) => setTimeout(r, 50));
  expect(fx.requests).toHaveLength(1);
});

test("an error on a later page ends the iteration with that error", async () => {
  fx.route = (req) => (req.query.get("page") === "2" ? { status: 429, body: {} } : { body: { data: ALL.slice(0, 2) } });
  const got: SearchItem[] = [];
  await expect(
    (async () => {
      for await (const item of client().search({ limit: 2 })) got.push(item);
    })(),
  ).rejects.toMatchObject({ kind: "credits_exhausted" });
  expect(got).toHaveLength(2);
});

test("a ranking is paginated the same way, positions from the service", async () => {
  fx.route = (req) => {
    const page = Number(req.query.get("page"));
    const data = ALL.slice((page - 1) * 3, page * 3).map((e, i) => ({ ...e, pozitie: (page - 1) * 3 + i + 1, valoare: 100 - i }));
    return { body: { slug: "top-x", data: page <= 3 ? data : [], pagination: { page, limit: 3, total: 8, pages: 3 } } };
  };
  const entries = await collect(client().ranking("top-x", { limit: 3 }));
  expect(entries.map((e) => e.pozitie)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(fx.requests.map((r) => `${r.path}?${r.search}`)).toEqual([
    "/v4/topuri/top-x?limit=3&page=1",
    "/v4/topuri/top-x?limit=3&page=2",
    "/v4/topuri/top-x?limit=3&page=3",
  ]);
});

test("an abort signal ends the iteration", async () => {
  list(250, (items) => ({ data: items, total: 250 }));
  const ac = new AbortController();
  const it = client().search({ limit: 10 }, { signal: ac.signal });
  await it.next();
  ac.abort();
  await expect(it.next()).resolves.toMatchObject({ done: false }); // the rest of page 1 is already here
  const rest = (async () => {
    for await (const _ of it);
  })();
  await expect(rest).rejects.toMatchObject({ kind: "aborted" });
  expect(fx.requests).toHaveLength(1);
});
