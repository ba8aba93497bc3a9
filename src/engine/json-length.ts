/**
 * About the length of JSON.stringify(v), without making the string (every answer is measured as it
 * arrives, on the path between an answer and the next call): strings count their characters and quotes
 * (escapes not), whole numbers their digits. An estimate, as the cap is.
 */
export function jsonLength(v: unknown): number {
  if (v === null) return 4;
  switch (typeof v) {
    case "string":
      return v.length + 2;
    case "boolean":
      return v ? 4 : 5;
    case "number":
      return Number.isSafeInteger(v) ? digits(v) : String(v).length;
    case "object": {
      // Brackets, and a comma between members: one per member, less one.
      let n = 1;
      if (Array.isArray(v)) {
        for (const x of v) n += jsonLength(x === undefined ? null : x) + 1;
        return v.length === 0 ? 2 : n;
      }
      let members = 0;
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined || typeof x === "function") continue;
        n += k.length + 4 + jsonLength(x); // "k":x,
        members++;
      }
      return members === 0 ? 2 : n;
    }
    default:
      return 0;
  }
}

function digits(n: number): number {
  let d = n < 0 ? 2 : 1;
  for (let a = Math.abs(n); a >= 10; a = Math.floor(a / 10)) d++;
  return d;
}
