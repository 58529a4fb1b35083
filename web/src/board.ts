// Board geometry for drawing: square and slot names, the move notation, and the printed
// Expert city (square numbers and districts). Legality never comes from here: the view's
// `legal_moves` is the only source of what may be played, and the server's `illegal_move`
// message the only source of why not.
import type { Mode } from "./types";

export const SITE_SIZE = 5;
export const SLOT_SIDES = ["T", "B", "L", "R"] as const;
export type Side = (typeof SLOT_SIDES)[number];

export const SIDE_WORDS: Record<Side, string> = {
  T: "top of column",
  B: "bottom of column",
  L: "left of row",
  R: "right of row",
};

export function squareName(row: number, col: number): string {
  return `r${row}c${col}`;
}

export function parseSquare(name: string): { row: number; col: number } | null {
  const m = /^r(\d)c(\d)$/.exec(name);
  return m ? { row: Number(m[1]), col: Number(m[2]) } : null;
}

export type ParsedMove =
  | { kind: "take"; architect: number; slot: string; side: Side; line: number }
  | { kind: "build"; square: string; row: number; col: number }
  | { kind: "discard" };

/** The engine's notation: `3L4`, `r2c3`, `discard`. */
export function parseMove(move: string): ParsedMove | null {
  const m = move.trim();
  if (m.toLowerCase() === "discard") return { kind: "discard" };
  const take = /^([1-5])([TBLR])([1-5])$/i.exec(m);
  if (take) {
    const side = take[2]!.toUpperCase() as Side;
    return { kind: "take", architect: Number(take[1]), slot: `${side}${take[3]}`, side, line: Number(take[3]) };
  }
  const sq = parseSquare(m.toLowerCase());
  if (sq) return { kind: "build", square: m.toLowerCase(), ...sq };
  return null;
}

/**
 * The site square an architect designates from a slot, for drawing a hover preview or an
 * analysis arrow when the view does not carry `take_options` (requested from the server).
 * Pure geometry of the board (R1): #n counts n squares in from the slot's side.
 */
export function designatedSquare(slot: string, architect: number): string {
  const side = slot[0] as Side;
  const line = Number(slot.slice(1));
  const far = SITE_SIZE + 1 - architect;
  switch (side) {
    case "T":
      return squareName(architect, line);
    case "B":
      return squareName(far, line);
    case "L":
      return squareName(line, architect);
    case "R":
      return squareName(line, far);
  }
}

export function siteIndex(square: string): number {
  const sq = parseSquare(square);
  return sq ? (sq.row - 1) * SITE_SIZE + (sq.col - 1) : -1;
}

export function cityShape(mode: Mode): { rows: number; cols: number } {
  return mode === "expert" ? { rows: 4, cols: 5 } : { rows: 4, cols: 4 };
}

/** The numbers printed on the Expert city board (rules §5). */
export const EXPERT_NUMBERS = [
  [2, 3, 1, 1, 3],
  [5, 4, 2, 5, 4],
  [1, 2, 3, 1, 2],
  [4, 3, 5, 5, 4],
];

/** The districts printed on the Expert city board (rules §5). */
export const EXPERT_DISTRICTS = [
  [1, 1, 4, 2, 2],
  [1, 1, 4, 2, 2],
  [5, 5, 4, 3, 3],
  [5, 5, 4, 3, 3],
];

/** The district of a city square (row, col 1-based): Classic quadrants (R2) or Expert's printed five. */
export function district(mode: Mode, row: number, col: number): number {
  if (mode === "expert") return EXPERT_DISTRICTS[row - 1]?.[col - 1] ?? 0;
  return (row <= 2 ? 0 : 2) + (col <= 2 ? 1 : 2);
}

export function squareNumber(mode: Mode, row: number, col: number): number | null {
  return mode === "expert" ? (EXPERT_NUMBERS[row - 1]?.[col - 1] ?? null) : null;
}

export function slotWords(slot: string): string {
  const side = slot[0] as Side;
  return `${SIDE_WORDS[side]} ${slot.slice(1)}`;
}

export const ALL_SLOTS: string[] = SLOT_SIDES.flatMap((s) => [1, 2, 3, 4, 5].map((n) => `${s}${n}`));

/** The squares of a slot's line from its side up to `target` (for drawing the architect's reach). */
export function reachSquares(slot: string, target: string): string[] {
  const side = slot[0] as Side;
  const line = Number(slot.slice(1));
  const t = parseSquare(target);
  if (!t) return [];
  const out: string[] = [];
  for (let i = 1; i <= SITE_SIZE; i++) {
    const sq =
      side === "T" ? squareName(i, line) : side === "B" ? squareName(SITE_SIZE + 1 - i, line) : side === "L" ? squareName(line, i) : squareName(line, SITE_SIZE + 1 - i);
    out.push(sq);
    if (sq === target) return out;
  }
  return [];
}
