// The server's protocol (docs/protocol.md), as TypeScript types. tests/web/test_protocol_types.py
// checks them against what a real server sends: every payload fits its type (no key left
// undeclared), and every field declared here is sent.
import type { MoveFacts } from "./moveWords";

export type Mode = "classic" | "expert";
/**
 * The bot levels, weakest first: the names of the server's `quadropolis.bots.LEVELS` (served
 * with what each is at GET /api/levels), in the same order. The only list of levels in the
 * client: the lobby's choices and the `Level` type derive from it, and
 * tests/web/test_levels.py checks it against the Python list.
 */
export const LEVELS = ["easy", "medium", "neural", "hard", "expert"] as const;
export type Level = (typeof LEVELS)[number];

export function isLevel(value: string): value is Level {
  return (LEVELS as readonly string[]).includes(value);
}
export type Status = "waiting" | "playing" | "over" | "cancelled" | "expired" | "abandoned";
export type Phase = "take" | "place" | "over";
export type BuildingType =
  | "tower_block"
  | "shop"
  | "public_service"
  | "park"
  | "factory"
  | "harbor"
  | "office_tower"
  | "monument";

export interface Variants {
  urbanist_blocks: "lines" | "square";
  all_parks_absorb: boolean;
}

export interface Config {
  mode: Mode;
  players: number;
  first_player: number;
  variants: Variants;
}

export interface Seat {
  seat: number;
  kind: "human" | "bot";
  level: Level | null;
  name: string | null;
  open: boolean;
  /** Taken by the game's creator: its token may cancel the game while it waits. */
  host?: boolean;
  present?: boolean;
  bot_playing?: boolean;
  /** Its player resigned or timed out: placed below every seat that did not. */
  forfeited?: boolean;
}

export interface Building {
  type: BuildingType;
  floors?: number;
  vp?: number;
  variant?: "tree" | "playground";
}

export type Cell = Building | null;

export interface PlayerState {
  city: Cell[][];
  inhabitants: number;
  energy: number;
}

export interface EngineState {
  round: number;
  turn: number;
  position: number;
  starter: number;
  mayor: number;
  phase: Phase;
  pending: { tile: number; architect: number } | null;
  /** Tile id per square, row by row; null for an empty square and for a face-down one (hidden). */
  site: (number | null)[];
  face_down: string[];
  slots_used: string[];
  urbanist: string | null;
  /** Classic: per seat, the architects used this round; Expert: the shared pool, number -> count. */
  architects: number[][] | Record<string, number>;
  players: PlayerState[];
}

export type Breakdown = Record<string, number>;

/** CityScore.placement as JSON (in views: result.placements[i]). */
export interface Placement {
  activated: string[];
  customers: Record<string, number>;
  absorbing_parks: string[];
  removed: string[];
  unused_inhabitants: number;
  unused_energy: number;
}

export interface Score {
  total: number;
  breakdown: Breakdown;
  inhabitants_placed: number;
  empty_squares: number;
}

export interface LastAction {
  version: number;
  seat: number;
  kind: "move" | "undo";
  move: string | null;
  text: string;
  /** What the action did as values, for words in the player's language (moveWords.ts). */
  facts?: MoveFacts | null;
  by: "player" | "bot" | "takeover" | "clock";
  undone: boolean;
}

export interface Result {
  scores: number[];
  winners: number[];
  inhabitants_placed: number[];
  empty_squares: number[];
  /** In views: per seat, CityScore.placement JSON. */
  placements?: Placement[];
  /** The seats that resigned or timed out, in the order they did (absent when none did). */
  forfeits?: number[];
  /** In views: each seat's place (1 for the winners; equal places shared; forfeits last), as the server ranks them. */
  ranks?: number[];
  /** In views: what settled the winner: "score", "inhabitants_placed", "empty_squares", "shared" or "forfeit". */
  decided_by?: string;
}

/** The projected score of the city after each legal build. */
export interface BuildOption {
  move: string;
  score: number;
  /** The city's score after it once every building is fed (`quadropolis.outcome.fed_score`). */
  fed?: number;
}

export interface View {
  game: string | null;
  version: number;
  status: Status;
  config: Config;
  seats: Seat[];
  to_move: number | null;
  phase: Phase;
  round: number;
  turn: number;
  state: EngineState;
  legal_moves: string[];
  scores: Score[];
  last_actions: LastAction[];
  result: Result | null;
  you?: number[];
  can_undo?: number[];
  /** Whether hints/analysis may be asked for this table (analysis endpoint): never while a rated game runs. */
  analysis?: boolean;
  /** Whether the game is played for rating (the server's rule; hints are refused while it runs). */
  rated?: boolean;
  build_options?: BuildOption[];
  /** The table's clock: time per move as chosen, and the deadline (seconds since
   *  the epoch, server-authoritative) of the move being played; null without a clock. */
  clock?: Clock | null;
}

export interface Clock {
  move_seconds: number;
  kind: "live" | "correspondence";
  deadline: number | null;
}

/** A tile kind explained by the server (quadropolis.tile_help), in the players' words. */
export interface TileHelp {
  what: string;
  /** What a park is under the variant "every park absorbs" (parks only). */
  what_all_parks_absorb?: string;
  scores: string;
  where: string;
}

export interface TileInfo {
  id: number;
  round: number;
  code: string;
  /** The tile as the terminal and docs/tiles.md draw it (`T1*`, `P+2`, `Kt`): what players read. */
  label?: string;
  modes: string;
  min_players: number;
  building: Building;
  /** The tile in the players' words: "tower block", "tree park", "playground". */
  name: string;
  help: TileHelp;
  /** The same explanation as codes and values (quadropolis.tile_help.tile_help_parts), which
   * the client says in languages other than English (tileWords.ts). */
  help_parts?: TileHelpParts;
}

/** One clause of a tile's explanation: a code and its values. */
export type HelpPart = [string, Record<string, unknown>];

export interface TileHelpParts {
  what: HelpPart[];
  what_all_parks_absorb: HelpPart[];
  scores: HelpPart[];
  where: HelpPart[];
}

export interface GameListEntry {
  game: string;
  status: Status;
  config: Config;
  seats: Seat[];
  created_at: number | string;
  finished_at: number | string | null;
  result: Result | null;
}

export interface SeatPass {
  seat: number;
  token: string;
  link: string;
}

export interface Created {
  game: string;
  seats: SeatPass[];
  invites: { seat: number; link: string }[];
  watch: string;
  websocket: string;
}

export interface GameRecord {
  format: "quadropolis-game/1";
  config: Config & { seed: number };
  moves: string[];
  result?: Result;
  seats?: string[];
}

export interface MovesSoFar {
  game: string;
  status: Status;
  version: number;
  config: Config;
  seats: string[];
  moves: string[];
  /** Each action: `undone` is null for an undo (an undo is never itself undone), `at` seconds since the epoch. */
  history: { version: number; seat: number; kind: "move" | "undo"; move: string | null; undone: boolean | null; by: string; at: number }[];
}

export interface Candidate {
  move: string;
  text: string;
  facts?: MoveFacts;
  visits: number;
  win_chance: number;
  expected_score: number;
}

export interface AnalysisReply {
  type: "analysis";
  game: string | null;
  at: number;
  seat: number;
  bot: string;
  /** The search's iterations per candidate list. */
  iterations: number;
  candidates: Candidate[];
  best: string;
  /** Which engine searched: "native" (the compiled one) or "python". */
  engine: string;
}

/** POST /api/replay {"record", "at"} -> the view at move `at`. */
export interface ReplayReply {
  type: "replay";
  at: number;
  moves: number;
  rounds?: { round: number; at: number }[];
  view: View;
}

export interface ServerError {
  type: "error";
  code: string;
  message: string;
  id?: string | null;
  /** An illegal move's reason code (quadropolis.rules.ILLEGAL_MESSAGES) and its values. */
  reason?: string | null;
  params?: Record<string, string | number> | null;
}

export interface Accepted {
  type: "accepted";
  game: string;
  version: number;
  seat: number;
  kind: "move" | "undo";
  move?: string | null;
  id?: string | null;
}

/** A game's status after a cancellation, a departure or a resignation. */
export interface GameStatus {
  type: "status";
  game: string;
  status: Status;
}

export type ServerMessage =
  | { type: "welcome"; game: string; you: number[]; id?: string | null }
  | { type: "state"; game: string; version: number; view: View }
  | Accepted
  | ServerError
  | { type: "pong"; id?: string | null }
  | { type: "chat"; game: string; history: boolean; lines: { seat: number; name: string; text: string; at: number }[] }
  | { type: "rematch"; game: string; rematch: string; by: number[] };

/** One decision of a post-game review (the mover's win chances, 0-1). */
export interface MoveReview {
  index: number;
  player: number;
  move: string;
  text: string;
  best: string;
  best_text: string;
  win_before: number;
  win_after: number;
  score_before: number;
  score_after: number;
  /** The mover's expected VP margin over the best other player (negative: behind); absent in
   * reviews made before it. */
  margin_before?: number;
  margin_after?: number;
  loss: number;
  label: "good" | "inaccuracy" | "mistake" | "blunder";
  forced: boolean;
  /** The move played and the best move as values (absent in reviews made before them). */
  facts?: MoveFacts;
  best_facts?: MoveFacts;
}

/** A post-game review (`quadropolis-review/1`, docs/protocol.md). */
export interface Review {
  format: "quadropolis-review/1";
  players: number;
  iterations: number;
  thresholds: Record<string, number>;
  moves: MoveReview[];
  players_summary: { player: number; accuracy: number; counts: Record<string, number> }[];
  worst: number[];
  /** Each seat's win chance before every move (null where unknown). */
  chart: (number | null)[][];
  /** Each seat's expected VP margin before every move (null where unknown; absent in reviews
   * made before it). */
  margin_chart?: (number | null)[][];
}

/** GET/POST /api/games/{id}/review, POST /api/review. */
export type ReviewReply =
  | { type: "review"; game: string | null; status: "none" }
  | { type: "review"; game: string | null; status: "running"; done: number; total: number }
  | { type: "review"; game: string | null; status: "failed"; message: string }
  | { type: "review"; game: string | null; status: "done"; review: Review };
