// What the table shows, derived from a view without knowing the rules: everything about
// legality comes from `legal_moves`, everything about scores from `scores` and `result`.
import { liveRecord } from "./i18n";
import { designatedSquare, parseMove, siteIndex } from "./board";
import { ARCHITECTS, SLOTS } from "./game.gen";
import type { BuildOption, LastAction, Placement, View } from "./types";

/** A finished city's optimal final placement (activated buildings, customers...), when served. */
export function placementOf(view: View, seat: number): Placement | null {
  return view.result?.placements?.[seat] ?? null;
}

/** The seat this client must act for now (hotseat: any held seat), or null. */
export function actingSeat(view: View): number | null {
  if (view.status !== "playing" || view.to_move === null) return null;
  return (view.you ?? []).includes(view.to_move) ? view.to_move : null;
}

/** Legal takes by architect number: architect -> slots. */
export function legalTakes(view: View): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  if (view.phase !== "take") return out;
  for (const m of view.legal_moves) {
    const p = parseMove(m);
    if (p?.kind !== "take") continue;
    let set = out.get(p.architect);
    if (!set) out.set(p.architect, (set = new Set()));
    set.add(p.slot);
  }
  return out;
}

export function legalBuilds(view: View): Set<string> {
  const out = new Set<string>();
  if (view.phase !== "place") return out;
  for (const m of view.legal_moves) {
    const p = parseMove(m);
    if (p?.kind === "build") out.add(p.square);
  }
  return out;
}

export function canDiscard(view: View): boolean {
  return view.phase === "place" && view.legal_moves.includes("discard");
}

export interface ArchitectChoice {
  number: number;
  /** Classic: not yet used this round; Expert: how many are left in the pool. */
  left: number;
  playable: boolean;
}

/** The architects the seat to move may pick from (Classic: its own four; Expert: the pool). */
export function architectChoices(view: View, seat: number | null): ArchitectChoice[] {
  const takes = legalTakes(view);
  const a = view.state.architects;
  if (Array.isArray(a)) {
    if (seat === null) return [];
    const used = a[seat] ?? [];
    return ARCHITECTS.classic.map((n) => ({ number: n, left: used.includes(n) ? 0 : 1, playable: takes.has(n) }));
  }
  return ARCHITECTS.expert.map((n) => ({ number: n, left: a[String(n)] ?? 0, playable: takes.has(n) }));
}

/** Slots that no architect may use now, though free: closed by the urbanist. */
export function blockedSlots(view: View): Set<string> {
  const out = new Set<string>();
  if (view.status !== "playing" || view.phase !== "take") return out;
  const used = new Set(view.state.slots_used);
  const legal = new Set<string>();
  for (const set of legalTakes(view).values()) for (const s of set) legal.add(s);
  for (const slot of SLOTS) if (!used.has(slot) && !legal.has(slot)) out.add(slot);
  return out;
}

/** The square a take designates (the rules core's table of designated squares). */
export function takeTarget(move: string): string | null {
  const p = parseMove(move);
  return p?.kind === "take" ? designatedSquare(p.slot, p.architect) : null;
}

/** Who put which architect in a used slot of this round. */
export interface SlotArchitect {
  seat: number;
  architect: number;
}

interface ActionLike {
  seat: number;
  kind: string;
  move: string | null;
  undone: boolean | null;
}

/**
 * Who put which architect in each used slot this round. A slot holds one architect per
 * round, so the latest take in effect on a slot now used is this round's. Returns the
 * slots it could not explain from `actions` (then the whole history is needed).
 */
export function slotOwners(
  slotsUsed: string[],
  actions: ActionLike[],
): { owners: Record<string, SlotArchitect>; missing: string[] } {
  const owners: Record<string, SlotArchitect> = {};
  const wanted = new Set(slotsUsed);
  for (let i = actions.length - 1; i >= 0 && wanted.size; i--) {
    const a = actions[i]!;
    if (a.kind !== "move" || a.undone || !a.move) continue;
    const p = parseMove(a.move);
    if (p?.kind === "take" && wanted.has(p.slot)) {
      owners[p.slot] = { seat: a.seat, architect: p.architect };
      wanted.delete(p.slot);
    }
  }
  return { owners, missing: [...wanted] };
}

export interface Highlights {
  slot: string | null;
  siteSquare: string | null;
  seat: number | null;
  citySquare: string | null;
}

/** The last action's marks: the slot and square of the last take, the square of the last build. */
export function lastMove(actions: LastAction[]): Highlights {
  const h: Highlights = { slot: null, siteSquare: null, seat: null, citySquare: null };
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i]!;
    if (a.kind !== "move" || a.undone || !a.move) continue;
    const p = parseMove(a.move);
    if (!p) continue;
    if (p.kind === "build" && h.citySquare === null && h.slot === null) {
      h.citySquare = p.square;
      h.seat = a.seat;
      continue;
    }
    if (p.kind === "discard" && h.slot === null) {
      h.seat = a.seat;
      continue;
    }
    if (p.kind === "take") {
      h.slot = p.slot;
      const m = /-> (r\dc\d)/.exec(a.text);
      h.siteSquare = m ? m[1]! : designatedSquare(p.slot, p.architect);
      h.seat ??= a.seat;
      break;
    }
  }
  return h;
}

export interface RankEntry {
  seat: number;
  rank: number;
  score: number;
  inhabitants: number;
  empty: number;
  winner: boolean;
  /** The seat resigned or timed out (placed below the others). */
  forfeited: boolean;
}

/** Seats in finishing order, as the server ranked them (R13 lives in the engine, not here). */
export function ranking(view: View): RankEntry[] {
  const r = view.result;
  if (!r?.ranks) return [];
  const ranks = r.ranks;
  return r.scores
    .map((score, seat) => ({
      seat,
      rank: ranks[seat] ?? r.scores.length,
      score,
      inhabitants: r.inhabitants_placed[seat] ?? 0,
      empty: r.empty_squares[seat] ?? 0,
      winner: r.winners.includes(seat),
      forfeited: (r.forfeits ?? []).includes(seat),
    }))
    .sort((a, b) => a.rank - b.rank || a.seat - b.seat);
}

/** What settled the winner, in words: the server's `decided_by`. */
export function tieBreakWords(view: View): string {
  const names: Record<string, string> = liveRecord(["score", "inhabitants_placed", "empty_squares", "shared", "forfeit"], "tie.");
  return names[view.result?.decided_by ?? ""] ?? "";
}

/** The move actually being described by an analysis candidate, as board marks. */
export function candidateMarks(move: string): { slot?: string; siteSquare?: string; citySquare?: string; discard?: boolean } {
  const p = parseMove(move);
  if (!p) return {};
  if (p.kind === "take") return { slot: p.slot, siteSquare: takeTarget(move) ?? undefined };
  if (p.kind === "build") return { citySquare: p.square };
  return { discard: true };
}

/** The architect a take uses: the one picked if still playable, else the first playable one. */
export function pickArchitect(choices: ArchitectChoice[], picked: number | null): number | null {
  const playable = choices.filter((c) => c.playable).map((c) => c.number);
  return picked !== null && playable.includes(picked) ? picked : (playable[0] ?? null);
}

/** During this client's take: the slots lit for `architect`, and those open to another one only. */
export function litSlots(takes: Map<number, Set<string>>, architect: number | null, taking: boolean): { legal: Set<string>; other: Set<string> } {
  const legal = taking && architect !== null ? (takes.get(architect) ?? new Set<string>()) : new Set<string>();
  const other = new Set<string>();
  if (taking) for (const [n, set] of takes) if (n !== architect) for (const s of set) other.add(s);
  return { legal, other };
}

/** Why a legal take would take nothing: the square it designates is empty, or face down (R4, R6). */
export type DeadReason = "empty" | "face-down";

/** The slots where `architect` may go but would take nothing, with the reason (from the site). */
export function deadSlots(view: View, architect: number | null): Map<string, DeadReason> {
  const out = new Map<string, DeadReason>();
  if (architect === null) return out;
  const takes = legalTakes(view).get(architect) ?? new Set<string>();
  for (const slot of takes) {
    const move = `${architect}${slot}`;
    const square = takeTarget(move);
    if (!square) continue;
    const down = view.state.face_down.includes(square);
    const empty = view.state.site[siteIndex(square)] === null;
    if (down) out.set(slot, "face-down");
    else if (empty) out.set(slot, "empty");
  }
  return out;
}

/** What a build is worth against discarding: the score change now, and once every building is fed. */
export interface BuildValue {
  now: number;
  /** Null when the server does not send `fed`. */
  fed: number | null;
}

/**
 * Each legal build's value beside the discard's (`build_options`): a discard leaves the city as
 * it is, so its projected and fed scores are the city's now, and the differences are the
 * build's worth. Empty without a discard option to compare with.
 */
export function buildValues(options: BuildOption[] | undefined): Map<string, BuildValue> {
  const out = new Map<string, BuildValue>();
  const discard = options?.find((o) => o.move === "discard");
  if (!options || !discard) return out;
  for (const o of options) {
    if (o.move === "discard") continue;
    const fed = o.fed !== undefined && discard.fed !== undefined ? o.fed - discard.fed : null;
    const now = o.score - discard.score;
    out.set(o.move, { now, fed });
  }
  return out;
}

/** A score change as players write it: "+3", "−2" (a true minus sign), "0". */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** The projected score of each legal build square (`build_options`, when served). */
export function buildScores(options: BuildOption[] | undefined): Map<string, number> {
  return new Map((options ?? []).map((o) => [o.move, o.score]));
}

/** The cities in table order: the focused seat's first (yours, or the acting one in hotseat), then seat order. */
export function cityOrder(view: View, focus: number | null): number[] {
  const seats = view.seats.map((_, i) => i);
  return focus === null ? seats : [focus, ...seats.filter((s) => s !== focus)];
}
