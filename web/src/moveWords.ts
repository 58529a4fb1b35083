// What a move did, in the current language, from the values the server sends with it
// (quadropolis.rules.move_facts: the tile as the site shows it, "T1*", never a manifest code;
// the building type as its key, said in the rulebook's word). Older data without values (a
// review cached before they existed) falls back to the server's English sentence.
import { t, tOptional } from "./i18n";

/** quadropolis.rules.move_facts, or an undo (`count` moves taken back). */
export interface MoveFacts {
  kind: "take" | "build" | "discard" | "undo";
  architect?: number;
  slot?: string;
  square?: string;
  /** The tile's label (render.tile_label), absent when a take designates nothing. */
  tile?: string;
  /** The tile's building type key ("tower_block"). */
  building?: string;
  nothing?: "empty" | "face_down";
  count?: number;
}

/** The engine's own sentence, with snake_case spelled out and arrows drawn. */
export function engineWords(text: string): string {
  return text.replace(/_/g, " ").replace(/ -> /g, " → ");
}

/** `facts` in words; without them, `fallback` (the server's sentence). */
export function moveText(facts: MoveFacts | null | undefined, fallback: string): string {
  if (!facts) return engineWords(fallback);
  const where = { architect: facts.architect ?? 0, slot: facts.slot ?? "", square: facts.square ?? "" };
  const tile = facts.tile ?? "";
  switch (facts.kind) {
    case "take":
      if (facts.nothing === "empty") return t("move.takeEmpty", where);
      if (facts.nothing === "face_down") return t("move.takeFaceDown", where);
      return t("move.take", { ...where, tile, building: tOptional(`type.${facts.building ?? ""}`) ?? facts.building ?? "" });
    case "build":
      return t("move.build", { tile, square: where.square });
    case "discard":
      return t("move.discard", { tile });
    case "undo":
      return t("move.undo", { count: facts.count ?? 1 });
  }
}
