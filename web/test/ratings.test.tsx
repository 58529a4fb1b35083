// Ratings in the client: profile links route to the profile page, changes read with
// their sign, bot levels by their players' name, and the history chart draws one dot per game
// inside its frame.
import renderToString from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { RatingChart } from "../src/components/RatingChart";
import { setLanguage } from "../src/i18n";
import { profileUrl, ratedName, signed, type HistoryEntry } from "../src/ratings";
import { parseRoute } from "../src/route";

describe("ratings", () => {
  it("routes a profile link to the profile page, and refuses names no account can have", async () => {
    await setLanguage("en");
    expect(parseRoute(profileUrl("Ann_browser").slice(1), "")).toEqual({ page: "profile", player: "Ann_browser" });
    expect(parseRoute("?player=%3Cscript%3E", "")).toEqual({ page: "lobby" });
  });

  it("signs changes and names bot levels and deleted accounts", async () => {
    await setLanguage("en");
    expect([signed(3.44), signed(-1.25), signed(0.01)]).toEqual(["+3.4", "−1.3", "±0.0"]);
    expect(ratedName({ username: null, bot: "easy" })).toBe("Easy bot");
    expect(ratedName({ username: "ann", bot: null })).toBe("ann");
    expect(ratedName({ username: null, bot: null })).toBe("Former player");
  });

  it("draws the history inside the chart, one dot per rated game", async () => {
    await setLanguage("en");
    const points: HistoryEntry[] = [
      { game: "a", mode: "classic", at: 1, rating: 1.5, mu: 26.5, sigma: 8.3 },
      { game: "b", mode: "classic", at: 2, rating: -2, mu: 22.9, sigma: 8.0 },
      { game: "c", mode: "classic", at: 3, rating: 4.2, mu: 27.9, sigma: 7.9 },
    ];
    const html = renderToString(<RatingChart points={points} label="history" />);
    const dots = [...html.matchAll(/<circle[^>]*cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(dots).toHaveLength(3);
    expect(dots.every(([x, y]) => x! >= 0 && x! <= 320 && y! >= 0 && y! <= 120)).toBe(true);
    // Higher ratings are drawn higher (smaller y): c above a above b.
    expect(dots[2]![1]! < dots[0]![1]! && dots[0]![1]! < dots[1]![1]!).toBe(true);
    expect(html).toContain("3 rated games");
  });
});
