// The new-game form's choices and what they ask the server for (POST /api/games): the seat
// choices, the times per move offered, the form as it opens, the guided first game. No
// drawing here: the form is components/NewGame.tsx, its controller useLobby.ts.
import type { CreateSpec, SeatSpec } from "./api";
import { t } from "./i18n";
import { levelWord } from "./seats";
import { isLevel, LEVELS, type Level, type Mode } from "./types";

export type SeatChoice = "you" | "hotseat" | "invite" | Level;

export const SEAT_OPTIONS: readonly { value: SeatChoice; label: string }[] = [
  {
    value: "you",
    get label() {
      return t("lobby.seatYou");
    },
  },
  {
    value: "hotseat",
    get label() {
      return t("lobby.seatHotseat");
    },
  },
  {
    value: "invite",
    get label() {
      return t("lobby.seatInvite");
    },
  },
  ...LEVELS.map((level) => ({
    value: level,
    get label() {
      return t("lobby.seatBot", { level: levelWord(level) });
    },
  })),
];

/** What the server is asked for a seat: a bot of the chosen level, or a human (by `name` when given). */
export function seatSpec(choice: SeatChoice, name = ""): SeatSpec {
  if (isLevel(choice)) return { type: "bot", level: choice };
  return (choice === "hotseat" || choice === "you") && name.trim() ? { type: "human", name: name.trim() } : { type: "human" };
}

/** What the new-game form holds; `active` is the seats of the chosen player count. */
export interface NewGameChoices {
  mode: Mode;
  players: number;
  seats: SeatChoice[];
  /** Per seat, the name of a player on this device (hotseat); blank: numbered after `name`. */
  names: string[];
  /** The seat that plays first, or "random". */
  first: number | "random";
  name: string;
  square: boolean;
  allParks: boolean;
  isPublic: boolean;
  takeover: boolean;
  takeoverAfter: number;
  takeoverLevel: Level;
  /** The clock: seconds per move (live or correspondence), or null for none. */
  moveTime: number | null;
}

/** Times per move the form offers: live 1, 2 and 5 minutes; correspondence 1, 2 and 3 days. */
export const MOVE_TIMES: readonly number[] = [60, 120, 300, 86400, 2 * 86400, 3 * 86400];

/** What the server is asked to create (POST /api/games) for the form's choices. */
export function createSpec(c: NewGameChoices): CreateSpec {
  const active = c.seats.slice(0, c.players);
  const spec: CreateSpec = {
    mode: c.mode,
    players: c.players,
    name: c.name,
    // With players on this device, your own seat is named as you are; theirs as typed (else numbered).
    seats: active.map((s, i) => seatSpec(s, s === "you" ? (active.includes("hotseat") ? c.name : "") : c.names[i])),
    take: active.map((s, i) => (s === "you" || s === "hotseat" ? i : -1)).filter((i) => i >= 0),
    public: c.isPublic,
    variants: { urbanist_blocks: c.square ? "square" : "lines", all_parks_absorb: c.allParks },
  };
  if (c.first === "random" || c.first > 0) spec.first_player = c.first === "random" ? "random" : Math.min(c.first, c.players - 1);
  if (c.takeover) {
    spec.takeover_after = c.takeoverAfter;
    spec.takeover_level = c.takeoverLevel;
  }
  if (c.moveTime !== null) spec.move_time = c.moveTime;
  return spec;
}

/** The seats after choosing `v` for seat `i`: one "you" at most (choosing it elsewhere frees the previous one). */
export function chooseSeat(seats: SeatChoice[], i: number, v: SeatChoice): SeatChoice[] {
  const next = [...seats];
  if (v === "you") for (let j = 0; j < next.length; j++) if (next[j] === "you") next[j] = "hotseat";
  next[i] = v;
  return next;
}

/** The form as it opens (the name is the one last used on this device). */
export const FIRST_CHOICES: NewGameChoices = {
  mode: "classic",
  players: 2,
  seats: ["you", "medium", "medium", "medium"],
  names: ["", "", "", ""],
  first: 0,
  name: "",
  square: false,
  allParks: false,
  isPublic: true,
  takeover: false,
  takeoverAfter: 120,
  takeoverLevel: "medium",
  moveTime: null,
};

/** The guided first game: the fixed deal against an easy bot, this browser holding seat 1. */
export function guidedSpec(name: string): CreateSpec {
  return {
    mode: "classic",
    players: 2,
    name,
    seats: [{ type: "human" }, { type: "bot", level: "easy" }],
    take: [0],
    public: false,
    variants: { urbanist_blocks: "lines", all_parks_absorb: false },
    guided: true,
  };
}
