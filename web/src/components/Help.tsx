// "How to play": the game in a few lines, what the marks on the table mean, and the keys.
import { useRef } from "preact/hooks";
import { BlockedIcon, BuildingIcon, EnergyIcon, MayorIcon, PersonIcon, PlaygroundIcon, StarIcon, UrbanistIcon } from "./Icons";
import { SeatMark } from "./SeatMark";
import { t } from "../i18n";

export function Help() {
  const ref = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" class="link-button" onClick={() => ref.current?.showModal()}>
        {t("help.open")}
      </button>
      <dialog ref={ref} class="help" aria-labelledby="help-title">
        <form method="dialog" class="help-close">
          <button class="btn btn-small btn-quiet">Close</button>
        </form>
        <h2 id="help-title">How to play</h2>
        <p>
          Each round, buildings are laid out on the 5×5 <b>construction site</b>. On your turn, put one of your <b>architects</b> in a free slot around the
          site: architect #n takes the building on the n-th square of that row or column, counted from the slot. The <b>urbanist</b>{" "}
          <UrbanistIcon class="inline-icon" /> moves there and closes that row and column (<BlockedIcon class="inline-icon" /> slots) for the next player.
        </p>
        <p>
          Then <b>build</b> what you took in your city — with architect #n, on an empty square of row n or column n (Expert: a square numbered n or in
          district n) — or on top of a tower of the same type; or <b>discard</b> it. Tower blocks bring inhabitants <PersonIcon class="inline-icon" />,
          factories bring energy <EnergyIcon class="inline-icon" />. Whoever builds the tower block with the mayor <MayorIcon class="inline-icon" /> starts
          the next round.
        </p>
        <p>
          At the end, inhabitants and energy are placed in the best possible way for you: buildings that get what they need score; the others are removed;
          leftovers cost 1 point each. The number at the top right of each city is its score as it stands now.
        </p>
        <p>
          The <a href="/rules">full rules</a> explain every step, every building and every ruling (<a href="/rules#r8">R8</a> and the like, which the
          messages cite); hover over a tile to see what it is, what it scores and where it may go.
        </p>
        <h3>Buildings</h3>
        <BuildingLegend />
        <h3>Players</h3>
        <p>
          Each player has a colour, a shape and a letter: <SeatMark seat={0} size={18} /> <SeatMark seat={1} size={18} /> <SeatMark seat={2} size={18} />{" "}
          <SeatMark seat={3} size={18} />. An architect in a slot shows its owner's shape with its number.
        </p>
        <h3>Keys</h3>
        <ul>
          <li>
            <kbd>1</kbd>–<kbd>5</kbd> pick an architect; <kbd>Tab</kbd> to a slot or a square, <kbd>Enter</kbd> to play it
          </li>
          <li>
            <kbd>D</kbd> discard · <kbd>U</kbd> undo · <kbd>H</kbd> hint
          </li>
          <li>
            Replays: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Home</kbd>/<kbd>End</kbd>, <kbd>Space</kbd> play/pause
          </li>
        </ul>
      </dialog>
    </>
  );
}

/** The buildings, each with its colour, icon and letter as the table draws them. */
function BuildingLegend() {
  return (
    <ul class="help-legend">
      <li>
        <span class="tile-tower_block legend-tile"><BuildingIcon type="tower_block" /></span> T tower block: taller is better; needs 1 energy
      </li>
      <li>
        <span class="tile-shop legend-tile"><BuildingIcon type="shop" /></span> S shop: scores by customers; needs 1 energy
      </li>
      <li>
        <span class="tile-public_service legend-tile"><BuildingIcon type="public_service" /></span> P public service: scores by districts covered; 1 inhabitant
      </li>
      <li>
        <span class="tile-park legend-tile"><BuildingIcon type="park" /></span> K park (tree park absorbs pollution;{" "}
        <span class="tile-park legend-tile"><PlaygroundIcon /></span> playground brings an inhabitant): scores by adjacent tower blocks
      </li>
      <li>
        <span class="tile-factory legend-tile"><BuildingIcon type="factory" /></span> F factory: scores next to shops and harbors; 1 inhabitant
      </li>
      <li>
        <span class="tile-harbor legend-tile"><BuildingIcon type="harbor" /></span> H harbor: the longest rows and columns of harbors score; 1 inhabitant
      </li>
      <li>
        <span class="tile-office_tower legend-tile"><BuildingIcon type="office_tower" /></span> O office tower (Expert): by floors and group size
      </li>
      <li>
        <span class="tile-monument legend-tile"><BuildingIcon type="monument" /></span> M monument (Expert): likes parks, shops, services; hates industry
      </li>
      <li>
        <StarIcon class="inline-icon" /> printed victory points
      </li>
    </ul>
  );
}
