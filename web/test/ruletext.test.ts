import { describe, expect, it } from "vitest";
import { ruleParts } from "../src/components/RuleText";

describe("ruleParts", () => {
  it("links each ruling of a citation, and nothing else", () => {
    const parts = ruleParts("architect #3 at R4: slot R4 already holds an architect this round (R1)");
    expect(parts.filter((p) => p.ruling).map((p) => p.text)).toEqual(["R1"]);
    expect(parts.map((p) => p.text).join("")).toBe("architect #3 at R4: slot R4 already holds an architect this round (R1)");
  });

  it("splits a citation of several rulings", () => {
    const parts = ruleParts("on such a square (R8, R16).");
    expect(parts).toEqual([
      { text: "on such a square (", ruling: false },
      { text: "R8", ruling: true },
      { text: ", ", ruling: false },
      { text: "R16", ruling: true },
      { text: ").", ruling: false },
    ]);
  });

  it("leaves a list of slots alone", () => {
    expect(ruleParts("no such slot (slots are T1-T5, B1-B5, L1-L5, R1-R5)").some((p) => p.ruling)).toBe(false);
  });
});
