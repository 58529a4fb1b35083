import { describe, expect, it } from "vitest";
import { chooseSeat, createSpec, FIRST_CHOICES, type NewGameChoices } from "../src/components/Lobby";

/** Three players: two on this device, a hard bot; every park absorbs. */
const CHOICES: NewGameChoices = { ...FIRST_CHOICES, players: 3, seats: ["you", "hotseat", "hard", "invite"], name: "Ann", allParks: true };

describe("the new-game form", () => {
  it("asks for the seats of the chosen player count, taking the ones played on this device", () => {
    expect(createSpec(CHOICES)).toEqual({
      mode: "classic",
      players: 3,
      name: "Ann",
      seats: [{ type: "human" }, { type: "human" }, { type: "bot", level: "hard" }],
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
});
