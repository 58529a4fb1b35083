import type { View } from "../src/types";

/** A real server view (docs/protocol.md), trimmed: Classic, 2 players, seat 1 to take. */
export function classicView(over: Partial<View> = {}): View {
  const empty = () => [0, 1, 2, 3].map(() => [null, null, null, null]);
  return {
    game: "IW4ry2gLM5Nj",
    version: 1,
    status: "playing",
    config: { mode: "classic", players: 2, first_player: 0, variants: { urbanist_blocks: "lines", all_parks_absorb: false } },
    seats: [
      { seat: 0, kind: "human", level: null, name: "Ann", open: false, present: true, bot_playing: false },
      { seat: 1, kind: "human", level: null, name: "Bob", open: false, present: true, bot_playing: false },
    ],
    to_move: 1,
    phase: "take",
    round: 1,
    turn: 1,
    state: {
      round: 1,
      turn: 1,
      position: 1,
      starter: 0,
      mayor: 0,
      phase: "take",
      pending: null,
      site: [14, 13, 6, 9, 24, 17, 16, 18, 1, 22, 2, 0, 19, 4, 15, 11, 3, 12, 20, 23, 7, 10, 5, 21, 8],
      face_down: ["r1c4", "r2c2"],
      slots_used: ["L4"],
      urbanist: "r4c3",
      architects: [[3], []],
      players: [
        { city: empty(), inhabitants: 0, energy: 0 },
        { city: empty(), inhabitants: 0, energy: 0 },
      ],
    },
    legal_moves: ["1T1", "2T1", "3T1", "4T1", "1T2", "2T2", "3T2", "4T2", "1R5", "2R5", "3R5", "4R5"],
    scores: [0, 1].map(() => ({ total: 0, breakdown: {}, inhabitants_placed: 0, empty_squares: 16 })),
    last_actions: [
      { version: 1, seat: 0, kind: "move", move: "3L4", text: "architect #3 at L4 -> r4c3, a face-down tile: takes nothing", by: "player", undone: false },
    ],
    result: null,
    you: [1],
    can_undo: [],
    ...over,
  };
}
