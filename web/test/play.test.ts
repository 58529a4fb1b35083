import { describe, expect, it } from "vitest";
import { cityShape, designatedSquare, district, parseMove, reachSquares, squareNumber } from "../src/board";
import { tileFacts } from "../src/tiles";
import type { TileInfo } from "../src/types";
import { actingSeat, architectChoices, blockedSlots, buildScores, cityOrder, lastMove, legalBuilds, legalTakes, litSlots, pickArchitect, ranking, slotOwners, tieBreakWords } from "../src/play";
import { resignEnds } from "../src/components/GameExit";
import { classicView } from "./fixtures";

describe("notation", () => {
  it("parses takes, builds and discards", () => {
    expect(parseMove("3L4")).toEqual({ kind: "take", architect: 3, slot: "L4", side: "L", line: 4 });
    expect(parseMove("r2c3")).toEqual({ kind: "build", square: "r2c3", row: 2, col: 3 });
    expect(parseMove("DISCARD")).toEqual({ kind: "discard" });
    expect(parseMove("9Z9")).toBeNull();
  });
  it("draws what an architect designates from each side", () => {
    expect(designatedSquare("L4", 3)).toBe("r4c3");
    expect(designatedSquare("R4", 3)).toBe("r4c3");
    expect(designatedSquare("B2", 1)).toBe("r5c2");
    expect(designatedSquare("T5", 5)).toBe("r5c5");
    expect(reachSquares("R1", "r1c4")).toEqual(["r1c5", "r1c4"]);
    expect(reachSquares("T2", "r3c2")).toEqual(["r1c2", "r2c2", "r3c2"]);
    expect(reachSquares("T2", "r3c3")).toEqual([]);
  });
  it("draws the cities from the rules core's tables (Classic quadrants, Expert's printed board)", () => {
    expect(cityShape("classic")).toMatchObject({ rows: 4, cols: 4 });
    expect(cityShape("expert")).toMatchObject({ rows: 4, cols: 5 });
    expect([district("classic", 1, 1), district("classic", 2, 3), district("classic", 3, 2), district("classic", 4, 4)]).toEqual([1, 2, 3, 4]);
    expect([district("expert", 1, 3), district("expert", 4, 1), district("expert", 3, 5)]).toEqual([4, 5, 3]);
    expect([squareNumber("expert", 1, 1), squareNumber("expert", 4, 5), squareNumber("classic", 1, 1)]).toEqual([2, 4, null]);
  });
  it("reads what a tile prints from its kind (a playground gives no inhabitant when every park absorbs)", () => {
    const tile = (code: string, building: TileInfo["building"]): TileInfo => ({ id: 1, round: 1, code, modes: "both", min_players: 2, building, name: code, help: { what: "", scores: "", where: "" } });
    expect(tileFacts(tile("H1I1E", { type: "harbor" }))).toMatchObject({ inhabitants: 1, energy: 1, mayor: false });
    expect(tileFacts(tile("T1m", { type: "tower_block", floors: 1 }))).toMatchObject({ inhabitants: 1, mayor: true });
    const playground = tile("PKP", { type: "park", variant: "playground" });
    expect(tileFacts(playground).inhabitants).toBe(1);
    expect(tileFacts(playground, { urbanist_blocks: "lines", all_parks_absorb: true }).inhabitants).toBe(0);
  });
});

describe("what the table derives from a view", () => {
  it("acts only for a held seat that is to move", () => {
    expect(actingSeat(classicView())).toBe(1);
    expect(actingSeat(classicView({ you: [0] }))).toBeNull();
    expect(actingSeat(classicView({ you: [] }))).toBeNull();
  });
  it("groups legal takes by architect and never invents one", () => {
    const takes = legalTakes(classicView());
    expect([...takes.keys()]).toEqual([1, 2, 3, 4]);
    expect([...takes.get(3)!]).toEqual(["T1", "T2", "R5"]);
    expect(legalBuilds(classicView())).toEqual(new Set());
  });
  it("offers the seat's own unused architects in Classic and the pool in Expert", () => {
    const v = classicView({ you: [0], to_move: 0, legal_moves: ["1T1", "2T1", "4T1"] });
    v.state.architects = [[3], []];
    expect(architectChoices(v, 0).map((c) => [c.number, c.left, c.playable])).toEqual([
      [1, 1, true],
      [2, 1, true],
      [3, 0, false],
      [4, 1, true],
    ]);
    const e = classicView({ legal_moves: ["5T1"] });
    e.state.architects = { "1": 0, "2": 2, "3": 1, "4": 2, "5": 1 };
    expect(architectChoices(e, 1).map((c) => c.left)).toEqual([0, 2, 1, 2, 1]);
  });
  it("shows free slots no move may use as blocked, from the legal moves", () => {
    const blocked = blockedSlots(classicView());
    expect(blocked.has("T1")).toBe(false);
    expect(blocked.has("L4")).toBe(false); // used, not blocked
    expect(blocked.has("B3")).toBe(true);
  });
  it("finds who put which architect in each used slot, latest action first", () => {
    const actions = [
      { seat: 1, kind: "move", move: "2L4", undone: false },
      { seat: 0, kind: "move", move: "3L4", undone: false },
      { seat: 1, kind: "move", move: "1T2", undone: true },
    ];
    expect(slotOwners(["L4", "T2"], actions)).toEqual({ owners: { L4: { seat: 0, architect: 3 } }, missing: ["T2"] });
  });
  it("marks the last take and build", () => {
    const h = lastMove([
      { version: 1, seat: 0, kind: "move", move: "3L4", text: "architect #3 at L4 -> r4c3, takes S (shop)", by: "player", undone: false },
      { version: 2, seat: 0, kind: "move", move: "r3c1", text: "builds S on r3c1", by: "player", undone: false },
    ]);
    expect(h).toEqual({ slot: "L4", siteSquare: "r4c3", seat: 0, citySquare: "r3c1" });
  });
  it("shows the server's ranks and what decided them, deriving nothing", () => {
    const over = classicView({
      status: "over",
      result: { scores: [30, 30], winners: [1], inhabitants_placed: [7, 9], empty_squares: [2, 2], ranks: [2, 1], decided_by: "inhabitants_placed" },
    });
    expect(ranking(over).map((r) => [r.seat, r.rank])).toEqual([
      [1, 1],
      [0, 2],
    ]);
    expect(tieBreakWords(over)).toMatch(/inhabitants placed/);
    const shared = classicView({
      status: "over",
      result: { scores: [30, 30, 10], winners: [0, 1], inhabitants_placed: [7, 7, 0], empty_squares: [2, 2, 9], ranks: [1, 1, 3], decided_by: "shared" },
    });
    expect(ranking(shared).map((r) => [r.seat, r.rank])).toEqual([
      [0, 1],
      [1, 1],
      [2, 3],
    ]);
    expect(tieBreakWords(shared)).toMatch(/shared/);
    // the client takes the server's word, even where its own numbers would say otherwise
    const told = classicView({
      status: "over",
      result: { scores: [40, 30], winners: [1], inhabitants_placed: [0, 0], empty_squares: [0, 0], ranks: [2, 1], decided_by: "score" },
    });
    expect(ranking(told).map((r) => r.seat)).toEqual([1, 0]);
    expect(tieBreakWords(told)).toBe("the highest score");
  });
});

describe("forfeits on the end screen and in the resign dialog", () => {
  it("marks the seats that forfeited and says a forfeit decided", () => {
    const resigned = classicView({
      status: "over",
      result: { scores: [40, 30], winners: [1], inhabitants_placed: [0, 0], empty_squares: [0, 0], forfeits: [0], ranks: [2, 1], decided_by: "forfeit" },
    });
    expect(ranking(resigned).map((r) => [r.seat, r.rank, r.forfeited])).toEqual([
      [1, 1, false],
      [0, 2, true],
    ]);
    expect(tieBreakWords(resigned)).toMatch(/resigned or ran out of time/);
  });
  it("tells whether a resignation ends the game", () => {
    const two = classicView({ status: "playing" });
    expect(resignEnds(two, [0])).toBe(true);
    const human = { kind: "human" as const, level: null, name: "P", open: false };
    const three = classicView({ status: "playing", seats: [0, 1, 2].map((seat) => ({ ...human, seat })) });
    expect(resignEnds(three, [0])).toBe(false); // two people play on
    expect(resignEnds(three, [0, 1, 2])).toBe(true); // no person left
    const againstBots = { ...three, seats: three.seats.map((s) => (s.seat === 0 ? s : { ...s, kind: "bot" as const, level: "easy" as const })) };
    expect(resignEnds(againstBots, [0])).toBe(true);
});
});

describe("what the table derives from a view and this client's picks", () => {
  it("keeps the picked architect while it is playable, else the first playable one", () => {
    const choices = [
      { number: 1, left: 0, playable: false },
      { number: 2, left: 1, playable: true },
      { number: 3, left: 1, playable: true },
    ];
    expect(pickArchitect(choices, 3)).toBe(3);
    expect(pickArchitect(choices, 1)).toBe(2);
    expect(pickArchitect(choices, null)).toBe(2);
    expect(pickArchitect([{ number: 1, left: 0, playable: false }], 1)).toBeNull();
  });
  it("lights the picked architect's slots, and marks those only another one may use", () => {
    const takes = new Map([
      [1, new Set(["T1", "T2"])],
      [2, new Set(["T2", "R5"])],
    ]);
    expect(litSlots(takes, 1, true)).toEqual({ legal: new Set(["T1", "T2"]), other: new Set(["T2", "R5"]) });
    expect(litSlots(takes, 3, true)).toEqual({ legal: new Set(), other: new Set(["T1", "T2", "R5"]) });
    expect(litSlots(takes, 1, false)).toEqual({ legal: new Set(), other: new Set() });
  });
  it("reads the projected score of each build, the last one given winning", () => {
    expect(buildScores(undefined)).toEqual(new Map());
    expect(buildScores([{ move: "r1c1", score: 4 }, { move: "r1c2", score: 6 }, { move: "r1c1", score: 5 }])).toEqual(
      new Map([
        ["r1c1", 5],
        ["r1c2", 6],
      ]),
    );
  });
  it("puts the focused city first, then the others in seat order", () => {
    const v = classicView();
    v.seats = [...v.seats, { ...v.seats[0]!, seat: 2, name: "Cy" }];
    expect(cityOrder(v, null)).toEqual([0, 1, 2]);
    expect(cityOrder(v, 1)).toEqual([1, 0, 2]);
  });
});
