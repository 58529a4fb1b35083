import { useEffect, useRef, useState } from "preact/hooks";
import { useTiles } from "../hooks";
import { TYPE_LETTERS, TYPE_NAMES, buildingHelp, describeBuilding, describeTile, type TileFacts } from "../tiles";
import { t } from "../i18n";
import type { Building } from "../types";
import { BuildingIcon, EnergyIcon, MayorIcon, PersonIcon, StarIcon } from "./Icons";
import { RuleText } from "./RuleText";

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
      <TileInfo tile={tile} />
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
      {tile.mayor && <MayorIcon class="mayor-mark" title={t("tile.mayor")} />}
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
      <span class="sr-only">{describeBuilding(building)}</span>
    </span>
  );
}

/**
 * The tile's explanation on a touch screen, where a `title` tooltip never shows: an ⓘ button
 * (shown only for coarse pointers, by CSS) opening a modal dialog with the same text, closed by
 * its button, Escape or a tap outside it.
 */
function TileInfo({ tile }: { tile: TileFacts }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        class="tile-info"
        aria-label={`${t("tile.info")} ${tile.label}`}
        aria-haspopup="dialog"
        data-testid="tile-info"
        onClick={(e) => {
          e.stopPropagation(); // a tap on ⓘ explains the tile; it does not play
          setOpen(true);
        }}
      >
        <span aria-hidden="true">i</span>
      </button>
      {open && <TileInfoDialog tile={tile} onClose={() => setOpen(false)} />}
    </>
  );
}

function TileInfoDialog({ tile, onClose }: { tile: TileFacts; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    // A tap on the backdrop lands on the dialog itself (its content is a child): close then.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      class="tile-tip"
      aria-labelledby={`tile-tip-${tile.id}`}
      data-testid="tile-tip"
      onClose={onClose}
      onClick={(e) => {
        e.stopPropagation();
        if (e.target === ref.current) ref.current?.close();
      }}
    >
      <h2 id={`tile-tip-${tile.id}`} class="tile-tip-title">
        <span class={`tile-tip-label tile-${tile.type}`}>{tile.label}</span> {TYPE_NAMES[tile.type]}
      </h2>
      {tile.help.split("\n").map((line, i) => (
        <p key={i}>
          <RuleText text={line} />
        </p>
      ))}
      <form method="dialog">
        <button class="btn btn-small">{t("tile.infoClose")}</button>
      </form>
    </dialog>
  );
}
