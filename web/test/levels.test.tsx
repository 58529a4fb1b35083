import renderToString from "preact-render-to-string";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NewGame } from "../src/components/NewGame";
import { LevelOptions } from "../src/components/NewGameOptions";
import { SEAT_OPTIONS, seatSpec } from "../src/newGame";
import { loadLevelDescriptions, readLevelDescriptions } from "../src/levels";
import { LEVEL_NAMES, seatKindWords, seatName } from "../src/seats";
import { isLevel, LEVELS } from "../src/types";

/** GET /api/levels as the server serves it (quadropolis.bots.LEVELS), shortened. */
const SERVED = {
  easy: "greedy, but a random legal move 35% of the time (instant)",
  medium: "MCTS, 250 iterations per take",
  neural: "a small network scoring each move from greedy's exact values",
  hard: "MCTS, 1,200 iterations per take",
  expert: "MCTS, 6,000 iterations per take; at most 3 s per move",
};

const noop = () => undefined;

function optionValues(html: string, testId: string): string[] {
  const select = new RegExp(`<select[^>]*data-testid="${testId}"[^>]*>(.*?)</select>`, "s").exec(html);
  expect(select, `no select ${testId}`).not.toBeNull();
  return [...select![1]!.matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]!);
}

describe("bot levels", () => {
  it("are the server's four levels, weakest first", () => {
    expect(LEVELS).toEqual(["easy", "medium", "neural", "hard", "expert"]);
    expect(LEVELS.every(isLevel)).toBe(true);
    expect(isLevel("you")).toBe(false);
    expect(isLevel("classic")).toBe(false);
  });

  it("are each a seat choice of the lobby, after the humans", () => {
    expect(SEAT_OPTIONS.map((o) => o.value)).toEqual(["you", "hotseat", "invite", "easy", "medium", "neural", "hard", "expert"]);
    expect(SEAT_OPTIONS.find((o) => o.value === "expert")?.label).toBe("Bot: expert");
    const html = renderToString(<NewGame onCreated={noop} />);
    expect(optionValues(html, "seat-0")).toEqual(["you", "hotseat", "invite", "easy", "medium", "neural", "hard", "expert"]);
    expect(optionValues(html, "seat-1")).toEqual(optionValues(html, "seat-0"));
  });

  it("are each a takeover level", () => {
    const html = renderToString(
      <select data-testid="takeover-level">
        <LevelOptions />
      </select>,
    );
    expect(optionValues(html, "takeover-level")).toEqual(["easy", "medium", "neural", "hard", "expert"]);
  });

  it("ask the server for a bot of the chosen level, a human otherwise", () => {
    expect(seatSpec("expert")).toEqual({ type: "bot", level: "expert" });
    expect(seatSpec("easy")).toEqual({ type: "bot", level: "easy" });
    expect(seatSpec("you")).toEqual({ type: "human" });
    expect(seatSpec("hotseat")).toEqual({ type: "human" });
    expect(seatSpec("invite")).toEqual({ type: "human" });
  });

  it("name the bot seats", () => {
    expect(LEVEL_NAMES).toEqual({ easy: "Easy bot", medium: "Medium bot", neural: "Neural bot", hard: "Hard bot", expert: "Expert bot" });
    const expert = { seat: 1, kind: "bot" as const, level: "expert" as const, name: null, open: false };
    expect(seatName(expert, 1)).toBe("Expert bot B");
    expect(seatKindWords(expert)).toBe("Expert bot");
  });
});

describe("level descriptions", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("keep only the known levels' texts from the server's reply", () => {
    expect(readLevelDescriptions(SERVED)).toEqual(SERVED);
    expect(readLevelDescriptions({ expert: "strong", grandmaster: "unknown", easy: 3, medium: "  " })).toEqual({ expert: "strong" });
    expect(readLevelDescriptions(null)).toEqual({});
    expect(readLevelDescriptions(["easy"])).toEqual({});
    expect(readLevelDescriptions("easy")).toEqual({});
  });

  it("are fetched once, and a failure gives none (asked again next time)", async () => {
    const fail = vi.fn(() => Promise.reject(new TypeError("offline")));
    vi.stubGlobal("fetch", fail);
    expect(await loadLevelDescriptions()).toEqual({});
    expect(fail).toHaveBeenCalledTimes(1);

    const ok = vi.fn((_path: string) => Promise.resolve(new Response(JSON.stringify(SERVED), { status: 200 })));
    vi.stubGlobal("fetch", ok);
    expect(await loadLevelDescriptions()).toEqual(SERVED);
    expect(await loadLevelDescriptions()).toEqual(SERVED);
    expect(ok).toHaveBeenCalledTimes(1);
    expect(ok.mock.calls[0]![0]).toBe("/api/levels");
  });

  it("describe the levels of the bot seats under the seats, and on their select", () => {
    // The default table: you and a medium bot.
    const html = renderToString(<NewGame onCreated={noop} levels={SERVED} />);
    expect(html).toContain('data-testid="level-hints"');
    expect(html).toContain(`<li id="level-hint-medium"><b>Medium bot</b>: ${SERVED.medium}</li>`);
    expect(html).not.toContain("level-hint-expert");
    const bot = new RegExp(`<select[^>]*data-testid="seat-1"[^>]*>`).exec(html)?.[0];
    expect(bot).toContain(`title="${SERVED.medium}"`);
    expect(bot).toContain('aria-describedby="level-hint-medium"');
    // Your own seat is no bot: nothing to describe.
    const you = new RegExp(`<select[^>]*data-testid="seat-0"[^>]*>`).exec(html)?.[0];
    expect(you).toBeDefined();
    expect(you).not.toContain("aria-describedby");
    expect(you).not.toContain("title=");
  });

  it("are left out when the server gave none", () => {
    const html = renderToString(<NewGame onCreated={noop} levels={{}} />);
    expect(html).not.toContain("level-hint");
    expect(html).not.toContain("aria-describedby");
    expect(html).not.toContain("title=");
  });
});
