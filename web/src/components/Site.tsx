// The construction site as the board looks: 5x5 squares, the 20 slots around them with the
// architects placed this round, the urbanist, closed slots.
import { reachSquares, SIDE_WORDS, siteIndex, squareName, type Side } from "../board";
import { SITE_SIZE } from "../game.gen";
import type { SiteMark, SlotPreview } from "../marks";
import { t } from "../i18n";
import { TEXT } from "../text";
import { seatName } from "../seats";
import { describeTile, type TileIndex } from "../tiles";
import type { DeadReason, SlotArchitect } from "../play";
import type { View } from "../types";
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
  /** Legal slots of the selected architect that would take nothing, and why. */
  dead?: Map<string, DeadReason>;
  /** Touch: the slot tapped once, waiting for its second tap. */
  armed?: string | null;
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
  const { view } = p;
  const reach = p.preview?.square ? new Set(reachSquares(p.preview.slot, p.preview.square)) : new Set<string>();
  const marks = marksByPlace(p.marks);
  const lines = Array.from({ length: SITE_SIZE }, (_, i) => i + 1);
  const slots = (side: Side) => lines.map((i) => <Slot key={`${side}${i}`} p={p} side={side} line={i} mark={marks.bySlot.get(`${side}${i}`)} />);
  const squares = [];
  for (const r of lines) {
    for (const c of lines) {
      const name = squareName(r, c);
      squares.push(<Square key={name} p={p} row={r} col={c} reach={reach.has(name)} mark={marks.bySquare.get(name)} />);
    }
  }
  return (
    <section class="site-wrap" aria-label={t("site.label")}>
      <div class="site" role="group" aria-label={t("site.group")}>
        {slots("T")}
        {slots("L")}
        {squares}
        {slots("R")}
        {slots("B")}
        <span class="site-corner" style={{ gridArea: "1 / 1" }} aria-hidden="true">
          R{view.round}
        </span>
      </div>
    </section>
  );
}

/** The first mark on each slot and on each square. */
function marksByPlace(marks: SiteMark[]): { bySlot: Map<string, SiteMark>; bySquare: Map<string, SiteMark> } {
  const bySlot = new Map<string, SiteMark>();
  const bySquare = new Map<string, SiteMark>();
  for (const m of marks) {
    if (m.slot && !bySlot.has(m.slot)) bySlot.set(m.slot, m);
    if (m.siteSquare && !bySquare.has(m.siteSquare)) bySquare.set(m.siteSquare, m);
  }
  return { bySlot, bySquare };
}

function slotLabel(p: SiteProps, name: string, side: Side, line: number, mark: SiteMark | undefined): string {
  const owner = p.owners[name];
  const used = p.view.state.slots_used.includes(name);
  let label = `Slot ${name}, ${SIDE_WORDS[side]} ${line}`;
  if (used) {
    label += owner ? `: architect ${owner.architect} of ${seatName(p.view.seats[owner.seat], owner.seat)}` : ": holds an architect this round";
  } else if (p.blocked.has(name)) label += ": closed by the urbanist";
  else if (p.interactive && p.selected !== null) {
    label += p.legal.has(name) ? `: place architect ${p.selected} here` : `: not available for architect ${p.selected}`;
    const dead = p.dead?.get(name);
    if (dead) label += `. ${deadWords(dead)}`;
  }
  if (mark) label += `; hint ${mark.rank}`;
  return label;
}

function Slot({ p, side, line, mark }: { p: SiteProps; side: Side; line: number; mark: SiteMark | undefined }) {
  const name = `${side}${line}`;
  const owner = p.owners[name];
  const used = p.view.state.slots_used.includes(name);
  const blocked = !used && p.blocked.has(name);
  const legal = p.legal.has(name);
  const dead = p.interactive && legal ? p.dead?.get(name) : undefined;
  const classes = [
    "slot",
    `slot-${side}`,
    used ? "slot-used" : "",
    blocked ? "slot-blocked" : "",
    p.interactive && legal ? "slot-legal" : "",
    dead ? "slot-dead" : "",
    p.armed === name ? "slot-armed" : "",
    p.interactive && !legal && !used && !blocked ? (p.legalOther.has(name) ? "slot-other" : "slot-unavailable") : "",
    p.preview?.slot === name ? "slot-preview" : "",
    p.last.slot === name ? "slot-last" : "",
    mark ? "slot-mark" : "",
  ].join(" ");
  return (
    <button
      type="button"
      class={classes}
      style={{ gridArea: area(side, line) }}
      aria-label={slotLabel(p, name, side, line, mark)}
      aria-disabled={!p.interactive || !legal ? "true" : undefined}
      data-slot={name}
      title={dead ? deadWords(dead) : undefined}
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
      {dead && (
        <span class="slot-dead-mark" aria-hidden="true">
          ∅
        </span>
      )}
      {mark && (
        <span class={`hint-badge${mark.best ? " hint-best" : ""}`} aria-hidden="true">
          {mark.rank}
        </span>
      )}
    </button>
  );
}

/** Why a slot takes nothing, in players' words. */
export function deadWords(reason: DeadReason): string {
  return reason === "face-down" ? TEXT.deadFaceDown : TEXT.deadEmpty;
}

function Square({ p, row, col, reach, mark }: { p: SiteProps; row: number; col: number; reach: boolean; mark: SiteMark | undefined }) {
  const st = p.view.state;
  const name = squareName(row, col);
  const id = st.site[siteIndex(name)];
  const down = st.face_down.includes(name);
  const facts = id !== null && id !== undefined && p.tiles ? p.tiles.get(id) : undefined;
  const urbanist = st.urbanist === name;
  let words: string;
  // A face-down square's tile id is hidden by the server (null), so it is checked first.
  if (down) words = t("site.faceDown");
  else if (id === null || id === undefined) words = t("site.empty");
  else words = facts ? `${facts.label}, ${describeTile(facts)}` : "?";
  const classes = [
    "square",
    down ? "square-down" : id === null || id === undefined ? "square-empty" : "square-tile",
    reach ? "square-reach" : "",
    p.preview?.square === name ? "square-target" : "",
    p.last.siteSquare === name ? "square-last" : "",
    mark ? "square-mark" : "",
  ].join(" ");
  return (
    <div class={classes} style={{ gridArea: `${row + 1} / ${col + 1}` }} data-square={name}>
      <span class="sr-only">{`${name}: ${words}${urbanist ? t("site.urbanistHere") : ""}`}</span>
      {id !== null && id !== undefined && !down && facts && <TileFace tile={facts} />}
      {down && <span class="tile-back" aria-hidden="true" />}
      {urbanist && (
        <span class="urbanist" aria-hidden="true" title={t("site.urbanist")}>
          <UrbanistIcon />
        </span>
      )}
      {mark && (
        <span class={`hint-badge hint-square${mark.best ? " hint-best" : ""}`} aria-hidden="true">
          {mark.rank}
        </span>
      )}
    </div>
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
