// "How to play": the game in a few lines, what the marks on the table mean, and the keys.
import { useRef } from "preact/hooks";
import { BlockedIcon, BuildingIcon, EnergyIcon, MayorIcon, PersonIcon, PlaygroundIcon, StarIcon, UrbanistIcon } from "./Icons";
import { SeatMark } from "./SeatMark";
import { BUILDING_TYPES } from "../game.gen";
import { t } from "../i18n";
import { TYPE_LETTERS, TYPE_NAMES } from "../tiles";
import { rich } from "./Rich";

export function Help() {
  const ref = useRef<HTMLDialogElement>(null);
  const icon = (I: typeof UrbanistIcon) => <I class="inline-icon" />;
  return (
    <>
      <button type="button" class="link-button" onClick={() => ref.current?.showModal()}>
        {t("help.open")}
      </button>
      <dialog ref={ref} class="help" aria-labelledby="help-title">
        <form method="dialog" class="help-close">
          <button class="btn btn-small btn-quiet">{t("help.close")}</button>
        </form>
        <h2 id="help-title">{t("help.open")}</h2>
        <p>{rich(t("help.site"), { urbanist: icon(UrbanistIcon), blocked: icon(BlockedIcon) })}</p>
        <p>{rich(t("help.build"), { person: icon(PersonIcon), energy: icon(EnergyIcon), mayor: icon(MayorIcon) })}</p>
        <p>{t("help.end")}</p>
        <p>{rich(t("help.rules"), { rules: <a href="/rules">{t("help.fullRules")}</a>, r8: <a href="/rules#r8">R8</a> })}</p>
        <h3>{t("help.buildings")}</h3>
        <BuildingLegend />
        <h3>{t("help.players")}</h3>
        <p>{rich(t("help.playersText"), { marks: <Marks /> })}</p>
        <h3>{t("help.keys")}</h3>
        <HelpKeys />
      </dialog>
    </>
  );
}

function Marks() {
  return (
    <>
      <SeatMark seat={0} size={18} /> <SeatMark seat={1} size={18} /> <SeatMark seat={2} size={18} /> <SeatMark seat={3} size={18} />
    </>
  );
}

const KEYS: Record<string, string> = {
  one: "1",
  five: "5",
  tab: "Tab",
  enter: "Enter",
  d: "D",
  u: "U",
  h: "H",
  left: "←",
  right: "→",
  home: "Home",
  end: "End",
  space: "Space",
};
const KBD = Object.fromEntries(Object.entries(KEYS).map(([name, key]) => [name, <kbd key={name}>{key}</kbd>]));

function HelpKeys() {
  return (
    <ul>
      <li>{rich(t("help.keysPlay"), KBD)}</li>
      <li>{rich(t("help.keysActions"), KBD)}</li>
      <li>{rich(t("help.keysReplay"), KBD)}</li>
    </ul>
  );
}

/** The buildings, each with its colour, icon and letter as the table draws them. */
function BuildingLegend() {
  const playground = (
    <span class="tile-park legend-tile">
      <PlaygroundIcon />
    </span>
  );
  return (
    <ul class="help-legend">
      {BUILDING_TYPES.map((type) => (
        <li key={type}>
          <span class={`tile-${type} legend-tile`}>
            <BuildingIcon type={type} />
          </span>{" "}
          {TYPE_LETTERS[type]} {TYPE_NAMES[type]}: {rich(t(`help.legend.${type}`), { playground })}
        </li>
      ))}
      <li>
        <StarIcon class="inline-icon" /> {t("help.legend.vp")}
      </li>
    </ul>
  );
}
