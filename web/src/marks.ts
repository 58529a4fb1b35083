// What is drawn over the board besides its pieces: the hint's numbered badges and the
// preview of the slot under the pointer. Pure: the table and the replay viewer compute them
// per render from the view and the analysis reply.
import { siteIndex } from "./board";
import { t } from "./i18n";
import { candidateMarks, takeTarget } from "./play";
import { describeTile, type TileIndex } from "./tiles";
import type { AnalysisReply, View } from "./types";

/** A hint candidate's badge on the site: on its slot and on the square it designates. */
export interface SiteMark {
  rank: number;
  slot?: string;
  siteSquare?: string;
  best?: boolean;
}

/** A hint candidate's badge on a city square (a build). */
export interface CityMark {
  rank: number;
  square: string;
  best?: boolean;
}

/** The badges of an analysis' candidates, ranked from 1 in the server's order. */
export function hintMarks(reply: AnalysisReply | null): { site: SiteMark[]; city: CityMark[] } {
  const site: SiteMark[] = [];
  const city: CityMark[] = [];
  reply?.candidates.forEach((c, i) => {
    const m = candidateMarks(c.move);
    const best = c.move === reply.best;
    if (m.slot) site.push({ rank: i + 1, slot: m.slot, siteSquare: m.siteSquare, best });
    if (m.citySquare) city.push({ rank: i + 1, square: m.citySquare, best });
  });
  return { site, city };
}

/** The hovered slot and, when the take is legal, the square it designates. */
export interface SlotPreview {
  slot: string;
  square: string | null;
}

export interface SlotPreviewInput {
  view: View;
  tiles: TileIndex | null;
  /** Legal takes by architect (`legalTakes`). */
  takes: Map<number, Set<string>>;
  blocked: Set<string>;
  /** The architect this client would place, or null when it is not taking. */
  architect: number | null;
  hover: string | null;
}

/** What the hovered (or focused) slot would do with the selected architect, drawn and in words. */
export function slotPreview({ view, tiles, takes, blocked, architect, hover }: SlotPreviewInput): { preview: SlotPreview | null; text: string } {
  if (!hover || architect === null) return { preview: null, text: "" };
  const legal = takes.get(architect)?.has(hover) ?? false;
  const square = takeTarget(`${architect}${hover}`);
  const preview = { slot: hover, square: legal ? square : null };
  if (legal && square) return { preview, text: t("mark.designates", { architect, slot: hover, square, what: takenWords(view, tiles, square) }) };
  if (view.state.slots_used.includes(hover)) return { preview, text: t("mark.slotUsed", { slot: hover }) };
  if (blocked.has(hover)) return { preview, text: t("mark.slotClosed", { slot: hover }) };
  return { preview, text: t("mark.cannotGo", { architect, slot: hover }) };
}

/** What a take designating `square` gives: the tile there, or nothing. */
function takenWords(view: View, tiles: TileIndex | null, square: string): string {
  const id = view.state.site[siteIndex(square)];
  const down = view.state.face_down.includes(square);
  const facts = id !== null && id !== undefined && !down ? tiles?.get(id) : undefined;
  if (facts) return t("mark.youTake", { tile: facts.label, what: describeTile(facts) });
  return t(down ? "mark.faceDown" : "mark.empty");
}
