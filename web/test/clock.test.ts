// The clock: how the time left reads, and the create form's time per move.
import { describe, expect, it } from "vitest";
import { clockText, perMoveWords } from "../src/components/Clock";
import { createSpec, FIRST_CHOICES, MOVE_TIMES } from "../src/newGame";

describe("clock", () => {
  it("reads minutes, hours and days", () => {
    expect(clockText(65)).toBe("1:05");
    expect(clockText(3 * 3600 + 4 * 60 + 5)).toBe("3:04:05");
    expect(clockText(2 * 86400 + 4 * 3600 + 59)).toBe("2 d 04 h");
    expect(clockText(-3)).toBe("0:00");
  });

  it("names the times per move and sends the chosen one", () => {
    expect(MOVE_TIMES.map(perMoveWords)).toEqual(["1 minute", "2 minutes", "5 minutes", "1 day", "2 days", "3 days"]);
    expect(createSpec(FIRST_CHOICES).move_time).toBeUndefined();
    expect(createSpec({ ...FIRST_CHOICES, moveTime: 86400 }).move_time).toBe(86400);
  });
});
