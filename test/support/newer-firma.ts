/**
 * A newer FIRMA opening the firm's database, in a process of its own (`node --import tsx
 * newer-firma.ts URL`): this FIRMA's migrations and one more (a table of its own), which is all a
 * newer version's start-up does to the schema. It prints `waiting` when its migration must wait for
 * older instances to stop, then `migrated <version>`, and keeps the database open until killed (a
 * newer instance running), or `refused <code>`.
 */
import { openFirmStore } from "../../src/server/firm/open-store";
import { MIGRATIONS } from "../../src/server/firm/schema";

const url = process.argv[2];
const migrations = [...MIGRATIONS, () => ["CREATE TABLE firm_newer_feature (id INTEGER NOT NULL PRIMARY KEY, note TEXT NOT NULL)"]];

openFirmStore(url, { schema: { migrations, onWaitForOlder: () => process.stdout.write("waiting\n") } }).then(
  () => {
    process.stdout.write(`migrated ${migrations.length}\n`);
    setInterval(() => undefined, 60_000);
  },
  (e: { code?: string; message?: string }) => {
    process.stdout.write(`refused ${e.code ?? e.message}\n`);
    process.exit(1);
  },
);
