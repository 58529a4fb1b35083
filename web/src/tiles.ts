// What a tile is, in words and in small numbers, from the server's tile manifest
// (GET /api/tiles). The codes are those of docs/tiles.md; the explanations are the core's
// (the manifest's "name" and "help"); building and category names are the rulebook's in the
// current language (locales/*.json; English equal to the core's, words.gen.ts: a test checks).
import { liveRecord, t } from "./i18n";
import type { Building, BuildingType, TileInfo, Variants } from "./types";
import { helpLines } from "./tileWords";

/** Each type's name in the rulebook of the current language (locales/*.json, keys type.*). */
export const TYPE_NAMES: Record<BuildingType, string> = liveRecord(
  ["tower_block", "shop", "public_service", "park", "factory", "harbor", "office_tower", "monument"],
  "type.",
);

/** One letter per type, drawn on every tile so that colour is never the only cue. */
export const TYPE_LETTERS: Record<BuildingType, string> = {
  tower_block: "T",
  shop: "S",
  public_service: "P",
  park: "K",
  factory: "F",
  harbor: "H",
  office_tower: "O",
  monument: "M",
};

export const CATEGORY_ORDER = [
  "tower_block",
  "shop",
  "public_service",
  "park",
  "factory",
  "harbor",
  "office_tower",
  "monument",
  "unused_inhabitants",
  "pollution",
] as const;

/** Each score category's name in the current language (keys category.*). */
export const CATEGORY_NAMES: Record<string, string> = liveRecord(CATEGORY_ORDER, "category.");

export interface TileFacts {
  id: number;
  code: string;
  /** What players read on the tile: the server's `label` (the terminal's notation), else the code. */
  label: string;
  type: BuildingType;
  inhabitants: number;
  energy: number;
  vp: number;
  mayor: boolean;
  tree: boolean;
  playground: boolean;
  /** The tile in the players' words ("tree park"). */
  name: string;
  /** The tooltip: what the tile is, what it scores, where it may go (one line each). */
  help: string;
}

/** What the tile prints, read from its code (docs/tiles.md, "How to read a tile"). */
export function tileFacts(tile: TileInfo, variants?: Variants): TileFacts {
  const code = tile.code;
  const b = tile.building;
  let inhabitants = 0;
  let energy = 0;
  let m: RegExpExecArray | null;
  if ((m = /^T(\d)/.exec(code))) inhabitants = Number(m[1]);
  else if ((m = /^F(\d)$/.exec(code))) energy = Number(m[1]);
  else if (code === "H2I") inhabitants = 2;
  else if (code === "H2E") energy = 2;
  else if (code === "H1I1E") {
    inhabitants = 1;
    energy = 1;
  } else if (code === "PKP" && !variants?.all_parks_absorb) inhabitants = 1;
  return {
    id: tile.id,
    code,
    label: tile.label ?? code,
    type: b.type,
    inhabitants,
    energy,
    vp: b.vp ?? 0,
    mayor: code === "T1m",
    tree: b.variant === "tree",
    playground: b.variant === "playground",
    name: tile.name,
    // Read when shown, so that it follows the language.
    get help() {
      return tileHelp(tile, variants);
    },
  };
}

/** The tooltip of a tile: what it is (under the game's variants), scores, where it may go. */
export function tileHelp(tile: TileInfo, variants?: Variants): string {
  const translated = helpLines(tile.help_parts, Boolean(variants?.all_parks_absorb));
  if (translated) return translated.join("\n");
  const h = tile.help;
  const what = variants?.all_parks_absorb && h.what_all_parks_absorb ? h.what_all_parks_absorb : h.what;
  return [what, h.scores, h.where].join("\n");
}

/** The tooltip of a building in a city: what it is, what it needs and scores (from the
 * manifest's first tile of that type and kind of park; without a manifest, what it is). */
export function buildingHelp(b: Building, tiles: TileInfo[] | null): string {
  const like = tiles?.find((t) => t.building.type === b.type && (b.type !== "park" || t.building.variant === b.variant));
  return like ? `${describeBuilding(b)}\n${tileHelp(like).split("\n")[1] ?? ""}` : describeBuilding(b);
}

export function buildingName(b: Building): string {
  if (b.type === "park") return t(b.variant === "playground" ? "desc.park.playground" : "desc.park.tree");
  return TYPE_NAMES[b.type];
}

/** "tower block, 2 floors, 1 VP printed" in the current language. */
export function describeBuilding(b: Building): string {
  const parts = [buildingName(b)];
  if (b.floors && b.floors > 1) parts.push(t("desc.floors", { count: b.floors }));
  if (b.vp) parts.push(t("desc.vp", { vp: b.vp }));
  return parts.join(", ");
}

/** "tower block, gives 2 inhabitants" in the current language. */
export function describeTile(f: TileFacts): string {
  const parts = [f.type === "park" ? t(f.playground ? "desc.park.playground" : "desc.park.tree") : TYPE_NAMES[f.type]];
  if (f.inhabitants) parts.push(t("desc.inhabitants", { count: f.inhabitants }));
  if (f.energy) parts.push(t("desc.energy", { count: f.energy }));
  if (f.vp) parts.push(t("desc.vp", { vp: f.vp }));
  if (f.mayor) parts.push(t("desc.mayor"));
  if (f.tree) parts.push(t("desc.absorbs"));
  return parts.join(", ");
}

export type TileIndex = Map<number, TileFacts>;

export function indexTiles(tiles: TileInfo[], variants?: Variants): TileIndex {
  return new Map(tiles.map((t) => [t.id, tileFacts(t, variants)]));
}
