/**
 * A1 references for the Excel stand-in: column letters, "Sheet!A1:B2" parsed into a box (1-based,
 * inclusive), a box written back, and the key a cell has in its sheet's map.
 */

/** A rectangle of cells, 1-based and inclusive. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export const colNum = (letters: string): number => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

export function colLetters(n: number): string {
  let s = "";
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const REF = /^(?:(?:'((?:[^']|'')+)'|([A-Za-z0-9_.]+))!)?\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/;

/** "Sheet!A1:B2" or "A1" → { sheet|null, box } (1-based, inclusive); null when it is not a reference. */
export function parseRef(text: string): { sheet: string | null; box: Box } | null {
  const m = REF.exec(text.trim());
  if (!m) return null;
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2] !== undefined ? m[2] : null;
  const r1 = Number(m[4]);
  const c1 = colNum(m[3]);
  const r2 = m[6] ? Number(m[6]) : r1;
  const c2 = m[5] ? colNum(m[5]) : c1;
  return { sheet, box: { top: Math.min(r1, r2), left: Math.min(c1, c2), bottom: Math.max(r1, r2), right: Math.max(c1, c2) } };
}

export function boxAddress(b: Box): string {
  const a = colLetters(b.left) + b.top;
  return b.top === b.bottom && b.left === b.right ? a : `${a}:${colLetters(b.right)}${b.bottom}`;
}

export const quoteSheet = (name: string): string => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

/** A cell's key in its sheet's map. */
export const k = (r: number, c: number): string => `${r},${c}`;

/** The row and column of a key. */
export const rc = (key: string): [number, number] => key.split(",").map(Number) as [number, number];

export const one = (r: number, c: number): Box => ({ top: r, left: c, bottom: r, right: c });
export const inBox = (b: Box, r: number, c: number): boolean => r >= b.top && r <= b.bottom && c >= b.left && c <= b.right;
export const overlaps = (a: Box, b: Box): boolean => a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
/** Every cell of a sheet. */
export const ALL: Box = { top: 1, left: 1, bottom: 1048576, right: 16384 };
