import { describe, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import { parseRoute } from "../src/route";
import { shareText, type Daily } from "../src/social";

const DAILY: Daily = {
  type: "daily",
  day: "2026-11-26",
  today: true,
  mode: "classic",
  players: 3,
  opponents: ["easy", "medium"],
  leaderboard: [],
  top: [],
  you: null,
};

describe("the daily challenge in the client", () => {
  it("routes /?daily to today's page and /?daily=DAY to that day's, refusing anything else", () => {
    expect(parseRoute("?daily", "")).toEqual({ page: "daily", day: null });
    expect(parseRoute("?daily=2026-11-25", "")).toEqual({ page: "daily", day: "2026-11-25" });
    expect(parseRoute("?daily=../api", "")).toEqual({ page: "daily", day: null });
  });

  it("writes the result to share: the leaderboard's place when ranked, the table's otherwise", async () => {
    await setLanguage("en");
    expect(shareText(DAILY, 74, 1, 3, false)).toBe("Quadropolis daily 2026-11-26 — 1st of 3 at the table, 74 VP");
    expect(shareText(DAILY, 74, 2, 17, true)).toBe("Quadropolis daily 2026-11-26 — #2 of 17, 74 VP");
  });

});
