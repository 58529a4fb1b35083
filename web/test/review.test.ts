import { describe, expect, it } from "vitest";
import type { MoveReview, Review } from "../src/types";
import { hasMargins, marginSeries, marginWords, winSeries } from "../src/useReview";

function move(index: number, player: number, winAfter: number): MoveReview {
  return {
    index, player, move: "1T1", text: "architect 1 in slot T1: takes nothing (1T1)", best: "1T1",
    best_text: "architect 1 in slot T1: takes nothing (1T1)", win_before: 0.5, win_after: winAfter,
    score_before: 0, score_after: 0, loss: 0, label: "good", forced: false,
  };
}

function review(players: number, moves: MoveReview[], chart: (number | null)[][]): Review {
  return { format: "quadropolis-review/1", players, iterations: 100, thresholds: {}, moves, players_summary: [], worst: [], chart };
}

describe("winSeries", () => {
  it("gives both players' chances after every move of a 2-player game", () => {
    const r = review(2, [move(0, 0, 0.6), move(1, 0, 0.7), move(2, 1, 0.2)], [[0.55, 0.45], [0.6, 0.4], [0.8, 0.2]]);
    const s = winSeries(r);
    expect(s[0]!.map((v) => v?.toFixed(2))).toEqual(["0.55", "0.60", "0.70", "0.80"]);
    expect(s[1]!.map((v) => v?.toFixed(2))).toEqual(["0.45", "0.40", "0.30", "0.20"]);
  });

  it("keeps a seat's last known chance in a game of 3", () => {
    const r = review(3, [move(0, 0, 0.4), move(1, 1, 0.3), move(2, 2, 0.5)], [[0.35, null, null], [null, 0.3, null], [null, null, 0.4]]);
    const s = winSeries(r);
    expect(s[0]).toEqual([0.35, 0.4, 0.4, 0.4]);
    expect(s[1]).toEqual([null, null, 0.3, 0.3]);
    expect(s[2]).toEqual([null, null, null, 0.5]);
  });
});

describe("marginSeries", () => {
  const withMargin = (m: MoveReview, after: number): MoveReview => ({ ...m, margin_before: 0, margin_after: after });

  it("gives the mover's margin after every move and mirrors it for the other of 2 players", () => {
    const moves = [withMargin(move(0, 0, 0.6), 4.5), withMargin(move(1, 1, 0.5), 2), withMargin(move(2, 0, 0.7), 6.25)];
    const r = { ...review(2, moves, [[0.5, 0.5]]), margin_chart: [[1.5, -1.5], [4.5, -4.5], [-2, 2]] };
    expect(hasMargins(r)).toBe(true);
    const s = marginSeries(r);
    expect(s[0]).toEqual([1.5, 4.5, -2, 6.25]);
    expect(s[1]).toEqual([-1.5, -4.5, 2, -6.25]);
  });

  it("is empty for a review stored before the margins, which still charts its win chances", () => {
    const r = review(2, [move(0, 0, 0.6)], [[0.55, 0.45]]);
    expect(hasMargins(r)).toBe(false);
    expect(marginSeries(r)).toEqual([]);
    expect(winSeries(r)[0]).toEqual([0.55, 0.6]);
  });
});

describe("marginWords", () => {
  it("says ahead, behind or level in the players' words", () => {
    expect(marginWords(6.24)).toBe("6.2 VP ahead");
    expect(marginWords(-3.06)).toBe("3.1 VP behind");
    expect(marginWords(0.04)).toBe("level");
    expect(marginWords(-0.04)).toBe("level");
  });
});
