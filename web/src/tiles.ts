// What a tile is, in words and in small numbers, from the server's tile manifest
// (GET /api/tiles). The codes are those of docs/tiles.md.
import { liveRecord } from "./i18n";
import type { Building, BuildingType, TileInfo, Variants } from "./types";

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
  };
}

export function buildingName(b: Building): string {
  if (b.type === "park") return b.variant === "playground" ? "playground" : "tree park";
  return TYPE_NAMES[b.type];
}

/** "tower block, 2 floors, +1 VP" */
export function describeBuilding(b: Building): string {
  const parts = [buildingName(b)];
  if (b.floors && b.floors > 1) parts.push(`${b.floors} floors`);
  if (b.vp) parts.push(`${b.vp} VP printed`);
  return parts.join(", ");
}

/** "T2 tower block: gives 2 inhabitants" */
export function describeTile(f: TileFacts): string {
  const name = f.type === "park" ? (f.playground ? "playground" : "tree park") : TYPE_NAMES[f.type];
  const gives: string[] = [];
  if (f.inhabitants) gives.push(`${f.inhabitants} inhabitant${f.inhabitants > 1 ? "s" : ""}`);
  if (f.energy) gives.push(`${f.energy} energy`);
  let text = name;
  if (gives.length) text += `, gives ${gives.join(" and ")}`;
  if (f.vp) text += `, ${f.vp} VP printed`;
  if (f.mayor) text += ", mayor symbol";
  if (f.tree) text += ", absorbs 1 pollution";
  return text;
}

export type TileIndex = Map<number, TileFacts>;

export function indexTiles(tiles: TileInfo[], variants?: Variants): TileIndex {
  return new Map(tiles.map((t) => [t.id, tileFacts(t, variants)]));
}
