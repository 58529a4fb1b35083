// A tile's explanation in the current language, from the codes and values the server's
// manifest sends beside its English text (quadropolis.tile_help.tile_help_parts: the figures
// come from the engine's tables; only the sentences around them are the catalogue's, keys
// tip.*). English shows the server's own text.
import { language, t, tOptional, type Key, type Params } from "./i18n";
import type { HelpPart, TileHelpParts } from "./types";

type Pairs = [number, number][];

/** "1 → 1, 2 → 3" */
const table = (pairs: unknown): string => (pairs as Pairs).map(([n, vp]) => `${n} → ${vp}`).join(", ");

/** "shop +1, tower block −1" with the building types in the language's words. */
function neighbours(pairs: unknown): string {
  return (pairs as [string, number][]).map(([type, vp]) => `${typeName(type)} ${vp < 0 ? "−" : "+"}${Math.abs(vp)}`).join(", ");
}

const typeName = (type: string): string => tOptional(`type.${type}`) ?? type;

/** A VP table with its Expert-only row, if any. */
function tableWithExpert(v: Record<string, unknown>): string {
  const shown = table(v.table);
  if (!v.expert) return shown;
  return t("tip.expertRow", { table: shown, expert: table([v.expert]) });
}

function clause([code, v]: HelpPart): string {
  const n = (name: string) => Number(v[name] ?? 0);
  switch (code) {
    case "name":
      return t(`tip.name.${String(v.park ?? v.building)}` as Key, { label: String(v.label) });
    case "gives":
      if (n("inhabitants") && n("energy")) return t("tip.givesBoth", { inhabitants: n("inhabitants"), energy: n("energy") });
      return n("inhabitants") ? t("tip.givesInhabitants", { count: n("inhabitants") }) : t("tip.givesEnergy", { count: n("energy") });
    case "prints":
      return t("tip.prints", { vp: n("vp") });
    case "scores_factory":
    case "scores_monument":
      return t(`tip.${code}`, { pairs: neighbours(v.pairs) });
    case "scores_office_tower":
      return t("tip.scores_office_tower", { alone: table(v.alone), big: table(v.big) });
    default:
      return tOptional(`tip.${code}`, code.startsWith("scores_") ? { table: tableWithExpert(v) } : {}) ?? "";
  }
}

/** Where the tile may go: the square, then how it stacks (or that it never does). */
function where([place, rule]: HelpPart[]): string {
  const square = place ? clause(place) : "";
  if (!rule) return square;
  const v = rule[1];
  const params: Params = { where: square, rulings: typeof v.rulings === "string" ? v.rulings : "" };
  if (rule[0] !== "stacks") return t("tip.never_stacked", params);
  const floors = Number(v.floors);
  const limits = v.expert_floors ? t("tip.limitsExpert", { floors, expert: Number(v.expert_floors) }) : t("tip.limits", { floors });
  return t(`tip.stacks.${String(v.building)}` as Key, { ...params, limits });
}

/** The three lines of a tile's tooltip in the current language, or null in English (the
 * server's text is used) or without parts. */
export function helpLines(parts: TileHelpParts | undefined, allParksAbsorb: boolean): [string, string, string] | null {
  if (!parts || language() === "en") return null;
  const what = (allParksAbsorb ? parts.what_all_parks_absorb : parts.what).map(clause).join(t("tip.separator")) + ".";
  return [what, parts.scores.map(clause).join(" "), where(parts.where)];
}
