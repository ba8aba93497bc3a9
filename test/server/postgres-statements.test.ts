/**
 * PostgreSQL statements as the firm's store sends them (src/server/firm/postgres-store.ts `prepared`):
 * a statement with parameters is a named prepared statement, the same name for the same text (each
 * connection parses and plans it once); one without parameters goes as it is (the simple protocol takes
 * the migrations' several statements in one text); and past 256 texts none is named, so that no
 * connection holds an unbounded number of prepared statements.
 */
import { prepared } from "../../src/server/firm/postgres-store";

test("the same text with parameters: one name, placeholders numbered, the values as given", () => {
  const sql = "SELECT name FROM firm_users WHERE token_hash = ? AND month = ?";
  const a = prepared(sql, ["h1", "2026-12"]);
  const b = prepared(sql, ["h2", "2026-11"]);
  expect(a.text).toBe("SELECT name FROM firm_users WHERE token_hash = $1 AND month = $2");
  expect(a.name).toMatch(/^firma_\d+$/);
  expect(b.name).toBe(a.name);
  expect(b.values).toEqual(["h2", "2026-11"]);
  expect(prepared("SELECT 1 WHERE ? = ?", [1, 1]).name).not.toBe(a.name);
});

test("without parameters: no name, the text as it is (several statements may share it)", () => {
  const sql = "CREATE TABLE a (x int); CREATE TABLE b (y int)";
  expect(prepared(sql, [])).toEqual({ text: sql, values: [] });
});

test("past 256 texts, statements go unnamed: the prepared statements a connection holds are bounded", () => {
  const names = new Set<string>();
  let unnamed = 0;
  for (let i = 0; i < 400; i++) {
    const s = prepared(`SELECT ${i} WHERE ? IS NOT NULL`, [i]);
    if (s.name) names.add(s.name);
    else unnamed++;
    expect(s.text).toBe(`SELECT ${i} WHERE $1 IS NOT NULL`);
  }
  expect(names.size).toBeLessThanOrEqual(256);
  expect(names.size + unnamed).toBe(400);
  expect(unnamed).toBeGreaterThanOrEqual(144);
  // a text named before the bound keeps its name
  expect(prepared("SELECT 0 WHERE ? IS NOT NULL", [0]).name).toBeDefined();
});
