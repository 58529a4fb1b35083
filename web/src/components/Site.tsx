// The construction site as the board looks: 5x5 squares, the 20 slots around them with the
// architects placed this round, the urbanist, closed slots.
import { reachSquares, SIDE_WORDS, squareName, type Side } from "../board";
import type { SiteMark, SlotPreview } from "../marks";
import { seatName } from "../seats";
import { describeTile, type TileIndex } from "../tiles";
import type { SlotArchitect, View } from "../types";
import { BlockedIcon, UrbanistIcon } from "./Icons";
import { SeatMark } from "./SeatMark";
import { TileFace } from "./Tile";

export interface SiteProps {
  view: View;
  tiles: TileIndex | null;
  owners: Record<string, SlotArchitect>;
  blocked: Set<string>;
  /** Slots legal for the selected architect (empty when not this client's take). */
  legal: Set<string>;
  /** Slots legal for some other architect. */
  legalOther: Set<string>;
  interactive: boolean;
  selected: number | null;
  preview: SlotPreview | null;
  last: { slot: string | null; siteSquare: string | null };
  marks: SiteMark[];
  onSlot?: (slot: string) => void;
  onPreview?: (slot: string | null) => void;
}

const ARROWS: Record<Side, string> = { T: "↓", B: "↑", L: "→", R: "←" };

export function Site(p: SiteProps) {
  const { view, tiles } = p;
  const st = view.state;
  const faceDown = new Set(st.face_down);
  const reach = p.preview?.square ? new Set(reachSquares(p.preview.slot, p.preview.square)) : new Set<string>();
  const markBySlot = new Map<string, SiteMark>();
  const markBySquare = new Map<string, SiteMark>();
  for (const m of p.marks) {
    if (m.slot && !markBySlot.has(m.slot)) markBySlot.set(m.slot, m);
    if (m.siteSquare && !markBySquare.has(m.siteSquare)) markBySquare.set(m.siteSquare, m);
  }

  const slot = (side: Side, line: number) => {
    const name = `${side}${line}`;
    const owner = p.owners[name];
    const used = st.slots_used.includes(name);
    const blocked = !used && p.blocked.has(name);
    const legal = p.legal.has(name);
    const mark = markBySlot.get(name);
    const classes = [
      "slot",
      `slot-${side}`,
      used ? "slot-used" : "",
      blocked ? "slot-blocked" : "",
      p.interactive && legal ? "slot-legal" : "",
      p.interactive && !legal && !used && !blocked ? (p.legalOther.has(name) ? "slot-other" : "slot-unavailable") : "",
      p.preview?.slot === name ? "slot-preview" : "",
      p.last.slot === name ? "slot-last" : "",
      mark ? "slot-mark" : "",
    ].join(" ");
    let label = `Slot ${name}, ${SIDE_WORDS[side]} ${line}`;
    if (used) {
      label += owner
        ? `: architect ${owner.architect} of ${seatName(view.seats[owner.seat], owner.seat)}`
        : ": holds an architect this round";
    } else if (blocked) label += ": closed by the urbanist";
    else if (p.interactive && p.selected !== null) {
      label += legal ? `: place architect ${p.selected} here` : `: not available for architect ${p.selected}`;
    }
    if (mark) label += `; hint ${mark.rank}`;
    return (
      <button
        type="button"
        key={name}
        class={classes}
        style={{ gridArea: area(side, line) }}
        aria-label={label}
        aria-disabled={!p.interactive || !legal ? "true" : undefined}
        data-slot={name}
        onClick={() => p.onSlot?.(name)}
        onMouseEnter={() => p.onPreview?.(name)}
        onMouseLeave={() => p.onPreview?.(null)}
        onFocus={() => p.onPreview?.(name)}
        onBlur={() => p.onPreview?.(null)}
      >
        {used ? (
          owner ? (
            <SeatMark seat={owner.seat} label={String(owner.architect)} size={26} />
          ) : (
            <span class="slot-pawn-unknown" aria-hidden="true">
              ●
            </span>
          )
        ) : blocked ? (
          <BlockedIcon class="slot-blocked-icon" />
        ) : (
          <span class="slot-name" aria-hidden="true">
            <span class="slot-arrow">{ARROWS[side]}</span>
            {name}
          </span>
        )}
        {mark && (
          <span class={`hint-badge${mark.best ? " hint-best" : ""}`} aria-hidden="true">
            {mark.rank}
          </span>
        )}
      </button>
    );
  };

  const squares = [];
  for (let r = 1; r <= 5; r++) {
    for (let c = 1; c <= 5; c++) {
      const name = squareName(r, c);
      const id = st.site[(r - 1) * 5 + (c - 1)];
      const down = faceDown.has(name);
      const facts = id !== null && id !== undefined && tiles ? tiles.get(id) : undefined;
      const urbanist = st.urbanist === name;
      const target = p.preview?.square === name;
      const mark = markBySquare.get(name);
      let words: string;
      if (id === null || id === undefined) words = "empty";
      else if (down) words = "face-down tile, not available this round";
      else words = facts ? `${facts.code}, ${describeTile(facts)}` : "a tile";
      const classes = [
        "square",
        down ? "square-down" : id === null || id === undefined ? "square-empty" : "square-tile",
        reach.has(name) ? "square-reach" : "",
        target ? "square-target" : "",
        p.last.siteSquare === name ? "square-last" : "",
        mark ? "square-mark" : "",
      ].join(" ");
      squares.push(
        <div key={name} class={classes} style={{ gridArea: `${r + 1} / ${c + 1}` }} data-square={name}>
          <span class="sr-only">{`${name}: ${words}${urbanist ? "; the urbanist stands here" : ""}`}</span>
          {id !== null && id !== undefined && !down && facts && <TileFace tile={facts} />}
          {down && <span class="tile-back" aria-hidden="true" />}
          {urbanist && (
            <span class="urbanist" aria-hidden="true" title="the urbanist">
              <UrbanistIcon />
            </span>
          )}
          {mark && (
            <span class={`hint-badge hint-square${mark.best ? " hint-best" : ""}`} aria-hidden="true">
              {mark.rank}
            </span>
          )}
        </div>,
      );
    }
  }

  return (
    <section class="site-wrap" aria-label="Construction site">
      <div class="site" role="group" aria-label="Construction site: 5 by 5 squares with 20 slots around">
        {[1, 2, 3, 4, 5].map((i) => slot("T", i))}
        {[1, 2, 3, 4, 5].map((i) => slot("L", i))}
        {squares}
        {[1, 2, 3, 4, 5].map((i) => slot("R", i))}
        {[1, 2, 3, 4, 5].map((i) => slot("B", i))}
        <span class="site-corner" style={{ gridArea: "1 / 1" }} aria-hidden="true">
          R{view.round}
        </span>
      </div>
    </section>
  );
}

function area(side: Side, line: number): string {
  switch (side) {
    case "T":
      return `1 / ${line + 1}`;
    case "B":
      return `7 / ${line + 1}`;
    case "L":
      return `${line + 1} / 1`;
    case "R":
      return `${line + 1} / 7`;
  }
}
