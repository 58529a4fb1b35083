import { describe, expect, it } from "vitest";
import { chooseSeat, createSpec, FIRST_CHOICES, guidedSpec, type NewGameChoices } from "../src/newGame";

/** Three players: two on this device, a hard bot; every park absorbs. */
const CHOICES: NewGameChoices = { ...FIRST_CHOICES, players: 3, seats: ["you", "hotseat", "hard", "invite"], name: "Ann", allParks: true };

describe("the new-game form", () => {
  it("asks for the seats of the chosen player count, taking the ones played on this device", () => {
    expect(createSpec(CHOICES)).toEqual({
      mode: "classic",
      players: 3,
      name: "Ann",
      seats: [{ type: "human", name: "Ann" }, { type: "human" }, { type: "bot", level: "hard" }],
      take: [0, 1],
      public: true,
      variants: { urbanist_blocks: "lines", all_parks_absorb: true },
    });
  });
  it("asks for a takeover bot only when allowed", () => {
    const spec = createSpec({ ...CHOICES, square: true, takeover: true, takeoverAfter: 60, takeoverLevel: "easy" });
    expect(spec.variants).toEqual({ urbanist_blocks: "square", all_parks_absorb: true });
    expect([spec.takeover_after, spec.takeover_level]).toEqual([60, "easy"]);
  });
  it("keeps one 'you' at most", () => {
    expect(chooseSeat(["you", "medium", "medium"], 2, "you")).toEqual(["hotseat", "medium", "you"]);
    expect(chooseSeat(["you", "medium"], 1, "easy")).toEqual(["you", "easy"]);
  });
  it("names the players on this device and asks for the first player", () => {
    const spec = createSpec({ ...CHOICES, names: [" ", " Bea ", "", ""], first: 2 });
    expect(spec.seats).toEqual([{ type: "human", name: "Ann" }, { type: "human", name: "Bea" }, { type: "bot", level: "hard" }]);
    expect(createSpec({ ...CHOICES, seats: ["you", "easy", "hard"] }).seats[0]).toEqual({ type: "human" });
    expect(spec.first_player).toBe(2);
    expect(createSpec({ ...CHOICES, first: "random" }).first_player).toBe("random");
    expect(createSpec({ ...CHOICES, players: 2, first: 3 }).first_player).toBe(1);
  });
  it("asks for the guided game's deal against an easy bot, unlisted", () => {
    expect(guidedSpec("Ann")).toMatchObject({ mode: "classic", players: 2, guided: true, public: false, take: [0] });
    expect(guidedSpec("Ann").seats[1]).toEqual({ type: "bot", level: "easy" });
  });
});
