import { describe, expect, it } from "vitest";
import { dueLesson, guideFacts, scoreLines, triggered, type GuideFacts } from "../src/guide";
import { LESSONS } from "../src/lessons";
import { newestAction, arrivalOffset } from "../src/motion";
import { buildValues, deadSlots, signed } from "../src/play";
import type { TileIndex } from "../src/tiles";
import { classicView } from "./fixtures";

const QUIET: GuideFacts = {
  status: "playing",
  round: 1,
  myTake: false,
  myBuild: false,
  urbanist: false,
  deadSlot: false,
  holding: null,
  canStack: false,
  resources: false,
};
const ALL = new Set(LESSONS.map((l) => l.id));
const seenAllBut = (...ids: string[]) => new Set([...ALL].filter((id) => !ids.includes(id)));

describe("the guided game's lessons", () => {
  it("has one lesson per id, each with words to say", () => {
    expect(ALL.size).toBe(LESSONS.length);
    for (const l of LESSONS) expect(l.title.length > 0 && l.body.every((p) => p.length > 20)).toBe(true);
  });
  it("never says an internal identifier", () => {
    const text = JSON.stringify(LESSONS.map((l) => [l.title, l.body]));
    expect(text).not.toMatch(/tower_block|public_service|office_tower|_/);
  });
  it("welcomes first, then explains the take when it is the player's", () => {
    expect(dueLesson(QUIET, new Set())?.id).toBe("welcome");
    expect(dueLesson(QUIET, new Set(["welcome"]))).toBeNull();
    expect(dueLesson({ ...QUIET, myTake: true }, new Set(["welcome"]))?.id).toBe("architects");
  });
  it("explains building before the building taken, each type once, the playground apart", () => {
    const build = { ...QUIET, myBuild: true, holding: "shop" as const };
    expect(dueLesson(build, new Set(["welcome"]))?.id).toBe("build");
    expect(dueLesson(build, new Set(["welcome", "build"]))?.id).toBe("shop");
    expect(dueLesson(build, seenAllBut("park"))).toBeNull();
    expect(dueLesson({ ...build, holding: "playground" }, seenAllBut("playground"))?.id).toBe("playground");
    expect(dueLesson({ ...build, holding: "park" }, seenAllBut("park"))?.id).toBe("park");
  });
  it("explains stacking only for a tower block that can go on one", () => {
    const stack = { ...QUIET, myBuild: true, holding: "tower_block" as const, canStack: true };
    expect(dueLesson(stack, seenAllBut("stacking"))?.id).toBe("stacking");
    expect(dueLesson({ ...stack, canStack: false }, seenAllBut("stacking"))).toBeNull();
    expect(dueLesson({ ...stack, holding: "shop" }, seenAllBut("stacking"))).toBeNull();
  });
  it("waits for its moment: urbanist, dead slots, resources, a new round, the end", () => {
    expect(triggered({ kind: "urbanist" }, QUIET)).toBe(false);
    expect(dueLesson({ ...QUIET, urbanist: true }, seenAllBut("urbanist"))?.id).toBe("urbanist");
    expect(dueLesson({ ...QUIET, myTake: true, deadSlot: true }, seenAllBut("dead-slot"))?.id).toBe("dead-slot");
    expect(dueLesson({ ...QUIET, resources: true }, seenAllBut("resources"))?.id).toBe("resources");
    expect(dueLesson({ ...QUIET, round: 2 }, seenAllBut("new-round"))?.id).toBe("new-round");
    expect(dueLesson({ ...QUIET, status: "over", round: 4, resources: true }, new Set())?.id).toBe("final");
  });
  it("reads its facts from a view, for the guided player's seat", () => {
    const view = classicView();
    const facts = guideFacts(view, 1, null);
    expect(facts).toMatchObject({ myTake: true, myBuild: false, urbanist: true, deadSlot: true, round: 1 });
    expect(guideFacts(view, 0, null)).toMatchObject({ myTake: false, deadSlot: false });
    const tiles: TileIndex = new Map([[14, { id: 14, code: "PKP", label: "Kp", type: "park", inhabitants: 1, energy: 0, vp: 0, mayor: false, tree: false, playground: true, name: "playground", help: "Kp: a playground" }]]);
    const placing = classicView({ phase: "place", legal_moves: ["r1c1", "discard"], state: { ...view.state, phase: "place", pending: { tile: 14, architect: 1 } } });
    expect(guideFacts(placing, 1, tiles)).toMatchObject({ myBuild: true, holding: "playground", canStack: false });
  });
  it("gives the final score sheet category by category, with what each counts", () => {
    const view = classicView({ status: "over", scores: [{ total: 9, breakdown: { tower_block: 6, shop: 0, park: 4, pollution: -1 }, inhabitants_placed: 3, empty_squares: 2 }] });
    const lines = scoreLines(view, 0);
    expect(lines.map((l) => [l.name, l.points])).toEqual([
      ["tower blocks", 6],
      ["parks", 4],
      ["pollution", -1],
    ]);
    expect(lines.every((l) => l.explains.length > 0)).toBe(true);
  });
});

describe("moves that explain themselves", () => {
  it("marks the slots that would take nothing, and why", () => {
    const view = classicView();
    // architect 2 at T2 designates r2c2, face down; architect 1 at T1 takes the tile on r1c1
    expect(deadSlots(view, 2).get("T2")).toBe("face-down");
    expect(deadSlots(view, 1).has("T1")).toBe(false);
    const emptied = classicView({ state: { ...view.state, site: view.state.site.map((t, i) => (i === 0 ? null : t)) } });
    expect(deadSlots(emptied, 1).get("T1")).toBe("empty");
    expect(deadSlots(view, null).size).toBe(0);
  });
  it("values a build against a discard, now and once fed", () => {
    const values = buildValues([
      { move: "r1c1", score: 8, fed: 17 },
      { move: "r1c2", score: 12, fed: 12 },
      { move: "discard", score: 10, fed: 12 },
    ]);
    expect(values.get("r1c1")).toEqual({ now: -2, fed: 5 });
    expect(values.get("r1c2")).toEqual({ now: 2, fed: 0 });
    expect(values.has("discard")).toBe(false);
    expect(buildValues([{ move: "r1c1", score: 3 }, { move: "discard", score: 1 }]).get("r1c1")).toEqual({ now: 2, fed: null });
    expect([signed(3), signed(-2), signed(0)]).toEqual(["+3", "−2", "0"]);
  });
});

describe("the table shows what happens", () => {
  it("animates the newest action in effect, an architect coming from its own side", () => {
    const view = classicView();
    expect(newestAction(view.last_actions)?.move).toBe("3L4");
    expect(newestAction([{ ...view.last_actions[0]!, undone: true }])).toBeNull();
    expect(arrivalOffset("L")[0]).toBeLessThan(0);
    expect(arrivalOffset("B")[1]).toBeGreaterThan(0);
  });
});
