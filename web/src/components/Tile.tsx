import { useTiles } from "../hooks";
import { TYPE_LETTERS, buildingHelp, buildingName, describeTile, type TileFacts } from "../tiles";
import { t } from "../i18n";
import type { Building } from "../types";
import { BuildingIcon, EnergyIcon, MayorIcon, PersonIcon, StarIcon } from "./Icons";

/** Small repeated pips: up to 3 icons, else one icon and a count. */
export function Pips({ n, kind }: { n: number; kind: "inhabitant" | "energy" }) {
  if (n <= 0) return null;
  const Icon = kind === "inhabitant" ? PersonIcon : EnergyIcon;
  return (
    <span class={`pips pips-${kind}`}>
      {n <= 3 ? Array.from({ length: n }, (_, i) => <Icon key={i} class="pip" />) : [<Icon key="i" class="pip" />, <b key="n">{n}</b>]}
    </span>
  );
}

/** A tile as it lies on the construction site (or in hand): what it is and what it gives. */
export function TileFace({ tile, compact = false }: { tile: TileFacts; compact?: boolean }) {
  return (
    <span class={`tile tile-${tile.type}${compact ? " tile-compact" : ""}`} title={tile.help}>
      <span class="tile-code" aria-hidden="true">
        {tile.label}
      </span>
      <BuildingIcon type={tile.type} playground={tile.playground} class="tile-icon" />
      <span class="tile-gives" aria-hidden="true">
        <Pips n={tile.inhabitants} kind="inhabitant" />
        <Pips n={tile.energy} kind="energy" />
        {tile.vp > 0 && (
          <span class="vp">
            <StarIcon class="pip" />
            {tile.vp}
          </span>
        )}
        {tile.tree && <span class="tree-mark">{t("table.absorbs")}</span>}
      </span>
      {tile.mayor && <MayorIcon class="mayor-mark" title="mayor symbol" />}
      <span class="sr-only">{`${tile.label}: ${describeTile(tile)}`}</span>
    </span>
  );
}

/** A building standing in a city: type, floors (a stack), printed VP. */
export function BuildingFace({ building }: { building: Building }) {
  const tiles = useTiles();
  const floors = building.floors ?? 1;
  const stacks = building.type === "tower_block" || building.type === "office_tower";
  return (
    <span class={`building tile-${building.type}`} title={buildingHelp(building, tiles)}>
      {stacks && floors > 1 && (
        <span class="floors-stack" aria-hidden="true">
          {Array.from({ length: Math.min(floors, 5) - 1 }, (_, i) => (
            <i key={i} style={{ "--i": i + 1 }} />
          ))}
        </span>
      )}
      <BuildingIcon type={building.type} playground={building.variant === "playground"} class="building-icon" />
      <span class="building-letter" aria-hidden="true">
        {TYPE_LETTERS[building.type]}
        {building.type === "park" ? (building.variant === "playground" ? "p" : "t") : null}
        {stacks && floors > 1 ? <sub>{floors}</sub> : null}
      </span>
      {building.vp ? (
        <span class="vp building-vp" aria-hidden="true">
          <StarIcon class="pip" />
          {building.vp}
        </span>
      ) : null}
      <span class="sr-only">{buildingName(building) + (floors > 1 ? `, ${floors} floors` : "") + (building.vp ? `, ${building.vp} VP printed` : "")}</span>
    </span>
  );
}
