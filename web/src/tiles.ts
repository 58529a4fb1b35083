// What a tile is, in words and in small numbers, from the server's tile manifest
// (GET /api/tiles). The codes are those of docs/tiles.md; the explanations are the core's
// (the manifest's "name" and "help"); building and category names are the rulebook's in the
// current language (locales/*.json; English equal to the core's, words.gen.ts: a test checks).
// What a tile kind prints, the types and the score sheet's lines are the rules core's
// (game.gen.ts).
import { BUILDING_TYPES, CATEGORIES, TILE_KINDS, TYPE_LETTERS } from "./game.gen";
import { liveRecord, t } from "./i18n";
import type { Building, BuildingType, TileInfo, Variants } from "./types";
import { helpLines } from "./tileWords";

/** Each type's name in the rulebook of the current language (locales/*.json, keys type.*). */
export const TYPE_NAMES: Record<BuildingType, string> = liveRecord(BUILDING_TYPES, "type.");

export { TYPE_LETTERS };

/** The lines of the score sheet, in order. */
export const CATEGORY_ORDER = CATEGORIES;

/** Each score category's name in the current language (keys category.*). */
export const CATEGORY_NAMES: Record<string, string> = liveRecord(CATEGORIES, "category.");

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
  const kind = TILE_KINDS[code];
  // Under "every park absorbs" the playground absorbs like a tree park and gives no inhabitant (R11 variant).
  const playground = b.type === "park" && b.variant === "playground";
  return {
    id: tile.id,
    code,
    label: tile.label ?? code,
    type: b.type,
    inhabitants: playground && variants?.all_parks_absorb ? 0 : (kind?.inhabitants ?? 0),
    energy: kind?.energy ?? 0,
    vp: b.vp ?? 0,
    mayor: kind?.mayor ?? false,
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
