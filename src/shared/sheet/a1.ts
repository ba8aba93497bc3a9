/** A1 addresses: columns as letters, rows 1-based; the limits of an .xlsx sheet. */

export const MAX_ROWS = 1_048_576;
export const MAX_COLS = 16_384;

/** A cell position, 1-based. */
export interface CellPos {
  row: number;
  col: number;
}

/** An inclusive rectangle of cells, 1-based. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** 1 → "A", 27 → "AA". */
export function colToLetters(col: number): string {
  let s = "";
  let n = col;
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** "A" → 1, "xfd" → 16384; 0 for anything that is not 1 to 3 letters. */
export function lettersToCol(letters: string): number {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return 0;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export interface ParsedCellRef extends CellPos {
  colAbs: boolean;
  rowAbs: boolean;
}

const CELL_RE = /^(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})$/;

/** "A2", "$A$2", "a$2" → position (or null when malformed or outside the sheet). */
export function parseCellRef(ref: string): ParsedCellRef | null {
  const m = CELL_RE.exec(ref);
  if (!m) return null;
  const col = lettersToCol(m[2]);
  const row = Number(m[4]);
  if (col < 1 || col > MAX_COLS || row < 1 || row > MAX_ROWS) return null;
  return { row, col, colAbs: m[1] === "$", rowAbs: m[3] === "$" };
}

export function formatCellRef(row: number, col: number): string {
  return colToLetters(col) + String(row);
}

/** "A1:B3" or "A1" (no sheet, `$` allowed) → box, normalized so top ≤ bottom and left ≤ right. */
export function parseBox(ref: string): Box | null {
  const parts = ref.split(":");
  if (parts.length > 2) return null;
  const a = parseCellRef(parts[0]);
  if (!a) return null;
  const b = parts.length === 2 ? parseCellRef(parts[1]) : a;
  if (!b) return null;
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col),
  };
}

/** Box → "A1:B3", or "A1" for a single cell. */
export function formatBox(box: Box): string {
  const a = formatCellRef(box.top, box.left);
  return box.top === box.bottom && box.left === box.right ? a : `${a}:${formatCellRef(box.bottom, box.right)}`;
}

export function boxContains(box: Box, row: number, col: number): boolean {
  return row >= box.top && row <= box.bottom && col >= box.left && col <= box.right;
}

export function boxesIntersect(a: Box, b: Box): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
}

export function boxUnion(a: Box, b: Box): Box {
  return {
    top: Math.min(a.top, b.top),
    left: Math.min(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
  };
}

/** A numeric key for a position (row-major), usable in maps and for sorting. */
export function cellKey(row: number, col: number): number {
  return (row - 1) * MAX_COLS + (col - 1);
}
