import { describe, expect, it } from "vitest";
import { isTyping } from "../src/hooks";
import { parseRecord } from "../src/useReplay";

describe("a record file", () => {
  const record = { format: "quadropolis-game/1", config: { mode: "classic", players: 2 }, seed: 1, moves: ["1T1", "r1c1"] };
  it("reads JSON, or the first record of JSON Lines", () => {
    const text = JSON.stringify(record);
    expect(parseRecord(text)).toEqual({ text, record });
    const lines = `\n${text}\n${JSON.stringify({ ...record, moves: [] })}\n`;
    expect(parseRecord(lines)).toEqual({ text, record });
  });
  it("refuses what is not a game record, saying why", () => {
    expect(() => parseRecord("")).toThrow("The file is empty.");
    expect(() => parseRecord("not json\n{")).toThrow("The file is not JSON.");
    expect(() => parseRecord(JSON.stringify({ ...record, format: "other/1" }))).toThrow(/not a Quadropolis game record/);
  });
});

describe("keyboard shortcuts", () => {
  it("are never taken from typing in a field", () => {
    const el = (tagName: string, isContentEditable = false) => ({ tagName, isContentEditable }) as unknown as EventTarget;
    expect(isTyping(el("INPUT"))).toBe(true);
    expect(isTyping(el("SELECT"))).toBe(true);
    expect(isTyping(el("TEXTAREA"))).toBe(true);
    expect(isTyping(el("DIV", true))).toBe(true);
    expect(isTyping(el("BUTTON"))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
