/** Reading CSV in tests, independently of the writer (src/shared/csv.ts): RFC 4180, quotes undone. */

/** The records of a CSV text (a leading BOM dropped), each as its fields. */
export function parseCsv(input: string): string[][] {
  const text = input.replace(/^\ufeff/, "");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") (row.push(field), (field = ""));
    else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      ((row = []), (field = ""), i++);
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** A field a spreadsheet would take for a formula when it opened the file (OWASP's triggers); a plain number such as -1200 is not one. */
export const startsLikeFormula = (field: string): boolean =>
  /^\ufeff*[=+\-@\t\r\0]/.test(field) && !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(field);
