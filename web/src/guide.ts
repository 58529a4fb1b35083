// The guided first game's logic: which lesson (lessons.ts) is due in a position, which ones
// this browser has already read, and the final scoring in lesson form. Pure apart from the
// small storage helpers; the table only draws what `dueLesson` returns.
import { CATEGORY_LESSONS, LESSONS, type Lesson, type Trigger } from "./lessons";
import { parseSquare } from "./board";
import { actingSeat, deadSlots, legalBuilds, legalTakes } from "./play";
import { CATEGORY_NAMES, CATEGORY_ORDER, type TileIndex } from "./tiles";
import type { BuildingType, View } from "./types";

/** What the triggers look at, read from a view for the guided player's seat. */
export interface GuideFacts {
  status: View["status"];
  round: number;
  /** The guided player must take. */
  myTake: boolean;
  /** The guided player must build or discard. */
  myBuild: boolean;
  urbanist: boolean;
  /** Some architect of the guided player's could go to a slot that takes nothing. */
  deadSlot: boolean;
  /** The building the guided player holds ("playground" told apart from parks), or null. */
  holding: BuildingType | "playground" | null;
  /** The held building could go on top of one of the player's. */
  canStack: boolean;
  /** The guided player's city has received inhabitants or energy. */
  resources: boolean;
}

/** The facts of `view` for `seat` (the guided player's). */
export function guideFacts(view: View, seat: number, tiles: TileIndex | null): GuideFacts {
  const mine = actingSeat(view) === seat;
  const myTake = mine && view.phase === "take";
  const myBuild = mine && view.phase === "place";
  const pending = view.state.pending;
  const facts = myBuild && pending && tiles ? tiles.get(pending.tile) : undefined;
  const city = view.state.players[seat]?.city ?? [];
  const player = view.state.players[seat];
  const stackable = [...legalBuilds(view)].some((sq) => {
    const at = parseSquare(sq);
    return at !== null && (city[at.row - 1]?.[at.col - 1] ?? null) !== null;
  });
  return {
    status: view.status,
    round: view.round,
    myTake,
    myBuild,
    urbanist: view.state.urbanist !== null,
    deadSlot: myTake && [...legalTakes(view).keys()].some((a) => deadSlots(view, a).size > 0),
    holding: facts ? (facts.playground ? "playground" : facts.type) : null,
    canStack: myBuild && stackable,
    resources: (player?.inhabitants ?? 0) + (player?.energy ?? 0) > 0,
  };
}

/** Whether `trigger` holds for `facts`. */
export function triggered(trigger: Trigger, facts: GuideFacts): boolean {
  const playing = facts.status === "playing";
  switch (trigger.kind) {
    case "start":
      return playing;
    case "my-take":
      return playing && facts.myTake;
    case "urbanist":
      return playing && facts.urbanist;
    case "dead-slot":
      return playing && facts.deadSlot;
    case "my-build":
      return playing && facts.myBuild;
    case "taken":
      return playing && facts.holding === trigger.building;
    case "can-stack":
      return playing && facts.canStack && facts.holding === "tower_block";
    case "resources":
      return playing && facts.resources;
    case "new-round":
      return playing && facts.round > 1;
    case "over":
      return facts.status === "over";
  }
}

/** The first lesson not yet `seen` whose moment has come, in the order of `lessons`. */
export function dueLesson(facts: GuideFacts, seen: ReadonlySet<string>, lessons: readonly Lesson[] = LESSONS): Lesson | null {
  return lessons.find((l) => !seen.has(l.id) && triggered(l.when, facts)) ?? null;
}

/** One line of the final lesson: a score-sheet category, its points, and what it counts. */
export interface ScoreLine {
  category: string;
  name: string;
  points: number;
  explains: string;
}

/** The guided player's final score sheet, category by category (lines scoring nothing left out). */
export function scoreLines(view: View, seat: number): ScoreLine[] {
  const breakdown = view.scores[seat]?.breakdown ?? {};
  return CATEGORY_ORDER.filter((k) => (breakdown[k] ?? 0) !== 0).map((k) => ({
    category: k,
    name: CATEGORY_NAMES[k] ?? k,
    points: breakdown[k] ?? 0,
    explains: CATEGORY_LESSONS[k] ?? "",
  }));
}

const GUIDED_KEY = "quadropolis:guided";
const SEEN_PREFIX = "quadropolis:guided-seen:";

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The guided game this browser plays (its seat tokens are kept as for any game), or null. */
export function guidedGame(): string | null {
  return storage()?.getItem(GUIDED_KEY) ?? null;
}

export function setGuidedGame(game: string): void {
  storage()?.setItem(GUIDED_KEY, game);
  storage()?.removeItem(SEEN_PREFIX + game);
}

/** The lessons already read in `game`. */
export function seenLessons(game: string): Set<string> {
  try {
    const raw = JSON.parse(storage()?.getItem(SEEN_PREFIX + game) ?? "[]") as unknown;
    return new Set(Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

export function markSeen(game: string, id: string): Set<string> {
  const seen = seenLessons(game);
  seen.add(id);
  storage()?.setItem(SEEN_PREFIX + game, JSON.stringify([...seen]));
  return seen;
}
