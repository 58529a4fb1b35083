import { describe, expect, it } from "vitest";
import { minifyJson, recordBody } from "../src/api";
import { parseRoute } from "../src/route";

describe("records keep their 64-bit seeds", () => {
  const text = '{\n  "format": "quadropolis-game/1",\n  "config": {"mode": "classic", "players": 2, "seed": 2830698200455192498},\n  "moves": ["3L3", "r4c3"],\n  "note": "a  b"\n}';
  it("sends the record's own text, never a re-serialised number", () => {
    const body = recordBody(text, 7).text;
    expect(body).toContain('"seed":2830698200455192498');
    expect(JSON.stringify(JSON.parse(text))).not.toContain("2830698200455192498");
    expect(body.endsWith(',"at":7}')).toBe(true);
  });
  it("removes whitespace outside strings only", () => {
    expect(minifyJson('{ "a b" : [ 1 , "x \\" y" ] }')).toBe('{"a b":[1,"x \\" y"]}');
  });
});

describe("links", () => {
  it("reads seat, invite, watch and replay links", () => {
    expect(parseRoute("?game=IW4ry2gLM5Nj&seat=0", "#token=oLqg0_oNOhCztDla4pxQgg")).toEqual({
      page: "game",
      game: "IW4ry2gLM5Nj",
      seat: 0,
      token: "oLqg0_oNOhCztDla4pxQgg",
    });
    expect(parseRoute("?game=IW4ry2gLM5Nj&join=1", "")).toEqual({ page: "join", game: "IW4ry2gLM5Nj", seat: 1 });
    expect(parseRoute("?game=IW4ry2gLM5Nj", "")).toMatchObject({ page: "game", seat: null, token: null });
    expect(parseRoute("?replay=file", "")).toEqual({ page: "replay", game: null });
    expect(parseRoute("?game=<script>", "")).toEqual({ page: "lobby" });
  });
});
