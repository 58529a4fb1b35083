import renderToString from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { City } from "../src/components/City";
import { ScoreSheet } from "../src/components/ScoreSheet";
import { Site } from "../src/components/Site";
import { classicView } from "./fixtures";

describe("rendering", () => {
  it("draws an Expert city with its square numbers and a build's lit squares", () => {
    const v = classicView();
    v.config = { ...v.config, mode: "expert" };
    v.state.players[1]!.city = [0, 1, 2, 3].map(() => [null, null, null, null, null]);
    v.state.players[1]!.city[0]![0] = { type: "tower_block", floors: 2 };
    const html = renderToString(<City view={v} seat={1} interactive eligible={new Set(["r1c1", "r2c2"])} />);
    expect(html.match(/data-square=/g)?.length).toBe(20);
    expect(html).toContain("square 2");
    expect(html).toContain("tower block, 2 floors");
    expect(html).toContain("you may stack your building here");
    expect((html.match(/cell-eligible/g) ?? []).length).toBe(2);
  });
  it("draws the 20 slots, the urbanist and face-down squares", () => {
    const v = classicView();
    const html = renderToString(
      <Site
        view={v}
        tiles={null}
        owners={{ L4: { seat: 0, architect: 3 } }}
        blocked={new Set(["B3"])}
        legal={new Set(["T1"])}
        legalOther={new Set()}
        interactive
        selected={3}
        preview={null}
        last={{ slot: "L4", siteSquare: "r4c3" }}
        marks={[]}
      />,
    );
    expect(html.match(/data-slot=/g)?.length).toBe(20);
    expect(html).toContain("architect 3 of Ann");
    expect(html).toContain("closed by the urbanist");
    expect(html).toContain("the urbanist stands here");
    expect(html).toContain("face-down tile");
  });
  it("writes the score pad with every category and the tie-breakers", () => {
    const html = renderToString(<ScoreSheet view={classicView()} />);
    expect(html).toContain("public services");
    expect(html).toContain("inhabitants placed");
    expect(html).not.toContain("office towers");
  });
});
