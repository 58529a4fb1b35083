import { describe, expect, it } from "vitest";
import { hintMarks, slotPreview, type SlotPreviewInput } from "../src/marks";
import { blockedSlots, legalTakes } from "../src/play";
import type { TileIndex } from "../src/tiles";
import type { AnalysisReply } from "../src/types";
import { classicView } from "./fixtures";

/** The fixture's site holds tile 2 on r3c1 (the square architect 3 at T1 designates). */
const TILES: TileIndex = new Map([[2, { id: 2, code: "T2", label: "T2", type: "tower_block", inhabitants: 2, energy: 0, vp: 0, mayor: false, tree: false, playground: false, name: "tower block", help: "T2: a tower block" }]]);

function preview(over: Partial<SlotPreviewInput>) {
  const view = over.view ?? classicView();
  return slotPreview({ view, tiles: TILES, takes: legalTakes(view), blocked: blockedSlots(view), architect: 3, hover: null, ...over });
}

describe("the preview of the hovered slot", () => {
  it("is nothing without a hovered slot or an architect to place", () => {
    expect(preview({})).toEqual({ preview: null, text: "" });
    expect(preview({ hover: "T1", architect: null })).toEqual({ preview: null, text: "" });
  });
  it("names the tile a legal take designates", () => {
    expect(preview({ hover: "T1" })).toEqual({
      preview: { slot: "T1", square: "r3c1" },
      text: "Architect 3 at T1 designates r3c1: you take T2, tower block, gives 2 inhabitants.",
    });
  });
  it("takes nothing from a face-down tile, or while the tiles are unknown", () => {
    expect(preview({ hover: "T2", architect: 2 }).text).toBe("Architect 2 at T2 designates r2c2: a face-down tile, you take nothing.");
    expect(preview({ hover: "T1", tiles: null }).text).toBe("Architect 3 at T1 designates r3c1: an empty square, you take nothing.");
  });
  it("says why a slot is not open, and draws no target", () => {
    expect(preview({ hover: "L4" })).toEqual({ preview: { slot: "L4", square: null }, text: "Slot L4 already holds an architect this round." });
    expect(preview({ hover: "B3" }).text).toBe("Slot B3 is closed by the urbanist.");
    expect(preview({ hover: "B3", blocked: new Set() }).text).toBe("Architect 3 cannot go to B3.");
  });
});

describe("the hint's marks", () => {
  const reply = (moves: string[], best: string): AnalysisReply => ({
    type: "analysis",
    game: null,
    at: 1,
    iterations: 100,
    seat: 1,
    bot: "hard",
    best,
    engine: "python",
    candidates: moves.map((move) => ({ move, text: move, visits: 1, win_chance: 0.5, expected_score: 10 })),
  });
  it("ranks the candidates in the server's order, on the site and in the city", () => {
    expect(hintMarks(reply(["3T1", "r2c3", "discard"], "3T1"))).toEqual({
      site: [{ rank: 1, slot: "T1", siteSquare: "r3c1", best: true }],
      city: [{ rank: 2, square: "r2c3", best: false }],
    });
  });
  it("draws nothing without a reply", () => {
    expect(hintMarks(null)).toEqual({ site: [], city: [] });
  });
});
