/**
 * Who a token is, for every request of the firm's server: the person and her spend this month, read
 * fresh from the database at each request (a token revoked a moment ago is refused at the next one),
 * but in one statement for the requests that arrive together. The lookups made while the server reads
 * what came in on its connections (one turn of the event loop) wait for that turn to end and go to the
 * database as one query (dataloader, without its cache: nothing is remembered from one batch to the
 * next). With 50 people asking at once the database runs one statement for several requests, not one
 * each; alone, a request waits for nothing but the end of its turn.
 */
import DataLoader from "dataloader";
import type { Engine, SqlRunner } from "./schema";

export type PersonRow = {
  name: string;
  budget: number;
  created_at: number;
  revoked_at: number | null;
  last_seen_at: number | null;
  spent: number | null;
};

/** Tokens per statement: far below both engines' limits. */
const BATCH = 500;

const COLUMNS = `SELECT u.token_hash, u.name, u.budget, u.created_at, u.revoked_at, u.last_seen_at, m.spent
         FROM firm_users u LEFT JOIN firm_usage_month m ON m.user_name = u.name AND m.month = ?`;

export class PersonLookup {
  private readonly loader: DataLoader<string, PersonRow | null>;

  constructor(
    private readonly db: SqlRunner,
    private readonly engine: Engine,
  ) {
    this.loader = new DataLoader((keys) => this.batch(keys), {
      cache: false,
      maxBatchSize: BATCH,
      // After the turn that read the connections: every request that came in with it is in the batch.
      batchScheduleFn: (run) => setImmediate(run),
    });
  }

  /** The person whose token hashes to `tokenHash`, not revoked, with her spend in `month`; null when none. */
  load(tokenHash: string, month: string): Promise<PersonRow | null> {
    return this.loader.load(`${month}\u0000${tokenHash}`);
  }

  private async batch(keys: readonly string[]): Promise<(PersonRow | null)[]> {
    const byMonth = new Map<string, string[]>();
    for (const k of keys) {
      const [month, hash] = k.split("\u0000");
      const list = byMonth.get(month) ?? [];
      list.push(hash);
      byMonth.set(month, list);
    }
    const found = new Map<string, PersonRow>();
    for (const [month, hashes] of byMonth) {
      const unique = [...new Set(hashes)];
      const rows =
        unique.length === 1
          ? await this.db.all<PersonRow & { token_hash: string }>(`${COLUMNS} WHERE u.token_hash = ? AND u.revoked_at IS NULL`, [
              month,
              unique[0],
            ])
          : await this.db.all<PersonRow & { token_hash: string }>(
              this.engine === "postgres"
                ? `${COLUMNS} WHERE u.token_hash = ANY(?::text[]) AND u.revoked_at IS NULL`
                : `${COLUMNS} WHERE u.token_hash IN (SELECT value FROM json_each(?)) AND u.revoked_at IS NULL`,
              [month, this.engine === "postgres" ? unique : JSON.stringify(unique)],
            );
      for (const { token_hash, ...row } of rows) found.set(`${month}\u0000${token_hash}`, row);
    }
    return keys.map((k) => found.get(k) ?? null);
  }
}
