// Board geometry for drawing: square and slot names, the move notation, and the printed
// Expert city (square numbers and districts), read from the rules core's tables
// (game.gen.ts). Legality never comes from here: the view's `legal_moves` is the only source
// of what may be played, and the server's `illegal_move` message the only source of why not.
import { CITY, DESIGNATED, SITE_SIZE, SLOT_SIDES } from "./game.gen";
import type { Mode } from "./types";

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
 * The site square an architect designates from a slot (R1: #n counts n squares in from the
 * slot's side), from the rules core's table, for drawing a hover preview or an analysis arrow.
 */
export function designatedSquare(slot: string, architect: number): string {
  return DESIGNATED[slot]?.[architect - 1] ?? "";
}

export function siteIndex(square: string): number {
  const sq = parseSquare(square);
  return sq ? (sq.row - 1) * SITE_SIZE + (sq.col - 1) : -1;
}

export function cityShape(mode: Mode): { rows: number; cols: number } {
  return CITY[mode];
}

/** The district of a city square (row, col 1-based): Classic quadrants (R2) or Expert's printed five. */
export function district(mode: Mode, row: number, col: number): number {
  return CITY[mode].districts[row - 1]?.[col - 1] ?? 0;
}

/** The number printed on an Expert city square (rules §5); none in Classic. */
export function squareNumber(mode: Mode, row: number, col: number): number | null {
  return CITY[mode].numbers?.[row - 1]?.[col - 1] ?? null;
}

export function slotWords(slot: string): string {
  const side = slot[0] as Side;
  return `${SIDE_WORDS[side]} ${slot.slice(1)}`;
}

/** The squares of a slot's line from its side up to `target` (for drawing the architect's reach). */
export function reachSquares(slot: string, target: string): string[] {
  const line = DESIGNATED[slot] ?? [];
  const at = line.indexOf(target);
  return at < 0 ? [] : line.slice(0, at + 1);
}
