// A player's city: 4x4 (Classic, four quarter districts) or 4x5 (Expert, with the printed
// square numbers and five districts), its buildings and stacks, and during a build the
// squares the player may use; at the end, the optimal placement of its resources.
import type { ComponentChildren } from "preact";
import { cityShape, district, squareName, squareNumber } from "../board";
import type { CityMark } from "../marks";
import { seatKindWords, seatName } from "../seats";
import { CATEGORY_NAMES, CATEGORY_ORDER, describeBuilding } from "../tiles";
import type { Placement, Score, View } from "../types";
import { CheckIcon, CrossIcon, EnergyIcon, LeafIcon, MayorIcon, PersonIcon } from "./Icons";
import { SeatMark } from "./SeatMark";
import { BuildingFace } from "./Tile";

export interface CityProps {
  view: View;
  seat: number;
  large?: boolean;
  mine?: boolean;
  /** Squares where the pending building may go (this client's build). */
  eligible?: Set<string>;
  buildScores?: Map<string, number>;
  interactive?: boolean;
  onSquare?: (square: string) => void;
  lastSquare?: string | null;
  marks?: CityMark[];
  placement?: Placement | null;
  showBreakdown?: boolean;
  children?: ComponentChildren;
}

export function City(p: CityProps) {
  const { view, seat } = p;
  const mode = view.config.mode;
  const player = view.state.players[seat];
  const score: Score | undefined = view.scores[seat];
  const seatInfo = view.seats[seat];
  const name = seatName(seatInfo, seat);
  const { rows, cols } = cityShape(mode);
  const toMove = view.status === "playing" && view.to_move === seat;
  const mayor = view.state.mayor === seat;
  const architects = view.state.architects;
  const usedHere = Array.isArray(architects) ? (architects[seat] ?? []) : null;
  const markBySquare = new Map((p.marks ?? []).map((m) => [m.square, m]));
  const placement = p.placement ?? null;
  const removed = new Set(placement?.removed ?? []);
  const activated = new Set(placement?.activated ?? []);
  const absorbing = new Set(placement?.absorbing_parks ?? []);
  const over = view.status === "over";

  const cells = [];
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= cols; c++) {
      const sq = squareName(r, c);
      const b = player?.city[r - 1]?.[c - 1] ?? null;
      const number = squareNumber(mode, r, c);
      const d = district(mode, r, c);
      const right = c < cols && district(mode, r, c + 1) !== d;
      const below = r < rows && district(mode, r + 1, c) !== d;
      const eligible = p.eligible?.has(sq) ?? false;
      const stack = eligible && b !== null;
      const mark = markBySquare.get(sq);
      const buildScore = p.buildScores?.get(sq);
      const customers = placement?.customers[sq] ?? 0;
      const classes = [
        "cell",
        `district-${d}`,
        right ? "edge-right" : "",
        below ? "edge-below" : "",
        b ? "cell-built" : "cell-empty",
        eligible ? "cell-eligible" : "",
        p.interactive && !eligible ? "cell-ineligible" : "",
        p.lastSquare === sq ? "cell-last" : "",
        removed.has(sq) ? "cell-removed" : "",
        mark ? "cell-mark" : "",
      ].join(" ");
      let label = `${sq}${number ? `, square ${number}` : ""}, district ${d}: ${b ? describeBuilding(b) : "empty"}`;
      if (placement && b) {
        if (removed.has(sq)) label += "; removed (not activated)";
        else if (activated.has(sq)) label += "; activated";
        if (customers) label += `; ${customers} customer${customers > 1 ? "s" : ""}`;
        if (absorbing.has(sq)) label += "; absorbs 1 pollution";
      }
      if (eligible) label += stack ? "; you may stack your building here" : "; you may build here";
      if (buildScore !== undefined) label += ` (projected score ${buildScore})`;
      if (mark) label += `; hint ${mark.rank}`;
      const body = (
        <>
          {number !== null && (
            <span class="cell-number" aria-hidden="true">
              {number}
            </span>
          )}
          {b && <BuildingFace building={b} />}
          {placement && b && !removed.has(sq) && (activated.has(sq) || b.type === "park" || b.type === "monument") && (
            <span class="placed placed-on" aria-hidden="true" title="activated">
              <CheckIcon />
            </span>
          )}
          {placement && removed.has(sq) && (
            <span class="placed placed-removed" aria-hidden="true" title="removed">
              <CrossIcon />
            </span>
          )}
          {customers > 0 && (
            <span class="placed-customers" aria-hidden="true" title={`${customers} customers`}>
              {Array.from({ length: customers }, (_, i) => (
                <PersonIcon key={i} />
              ))}
            </span>
          )}
          {absorbing.has(sq) && (
            <span class="placed placed-absorb" aria-hidden="true" title="absorbs 1 pollution">
              <LeafIcon />
            </span>
          )}
          {eligible && (
            <span class="cell-build" aria-hidden="true">
              {stack ? "+1" : "+"}
              {buildScore !== undefined && <small>{buildScore} VP</small>}
            </span>
          )}
          {mark && (
            <span class={`hint-badge${mark.best ? " hint-best" : ""}`} aria-hidden="true">
              {mark.rank}
            </span>
          )}
          <span class="sr-only">{label}</span>
        </>
      );
      cells.push(
        p.interactive ? (
          <button
            type="button"
            key={sq}
            class={classes}
            data-square={sq}
            aria-disabled={eligible ? undefined : "true"}
            onClick={() => p.onSquare?.(sq)}
          >
            {body}
          </button>
        ) : (
          <div key={sq} class={classes} data-square={sq}>
            {body}
          </div>
        ),
      );
    }
  }

  return (
    <article
      class={`city-card seat-${seat}${p.large ? " city-large" : ""}${p.mine ? " city-mine" : ""}${toMove ? " city-to-move" : ""}`}
      aria-label={`City of ${name}`}
      data-seat={seat}
    >
      <header class="city-head">
        <SeatMark seat={seat} size={p.large ? 28 : 22} />
        <div class="city-who">
          <h3 class="city-name">
            {name}
            {p.mine && <span class="you-tag">you</span>}
          </h3>
          <span class="city-kind">
            {seatInfo && seatKindWords(seatInfo)}
            {seatInfo?.kind === "human" && !seatInfo.open && (
              <span class={`presence ${seatInfo.present || seatInfo.bot_playing ? "on" : "off"}`} aria-hidden="true" />
            )}
          </span>
        </div>
        {mayor && (
          <span class="mayor-badge" title="holds the mayor: starts the next round">
            <MayorIcon />
            <span class="sr-only">holds the mayor</span>
          </span>
        )}
        <div class="city-score" title="projected score: the city scored as it stands, resources placed optimally">
          <strong data-testid={`score-${seat}`}>{score?.total ?? 0}</strong>
          <span>{over ? "final" : "VP now"}</span>
        </div>
      </header>
      <div class="city-stats">
        <span class="stat" title="inhabitants">
          <PersonIcon class="stat-icon inh" />
          <b>{player?.inhabitants ?? 0}</b>
          <span class="sr-only">inhabitants</span>
        </span>
        <span class="stat" title="energy">
          <EnergyIcon class="stat-icon nrg" />
          <b>{player?.energy ?? 0}</b>
          <span class="sr-only">energy</span>
        </span>
        {usedHere && view.status === "playing" && (
          <span class="stat arch-left" title="architects not yet used this round">
            <span class="sr-only">architects left:</span>
            {[1, 2, 3, 4].map((n) => (
              <span key={n} class={`arch-chip${usedHere.includes(n) ? " used" : ""}`} aria-hidden={usedHere.includes(n) ? "true" : undefined}>
                {n}
              </span>
            ))}
          </span>
        )}
        {toMove && <span class="turn-flag">{view.phase === "place" ? "building" : "to play"}</span>}
      </div>
      <div
        class={`city-grid mode-${mode}`}
        style={{ gridTemplateColumns: `repeat(${cols}, 1fr)` }}
        role="group"
        aria-label={`${name}'s city, ${rows} rows by ${cols} columns`}
      >
        {cells}
      </div>
      {placement && (placement.unused_inhabitants > 0 || placement.unused_energy > 0) && (
        <p class="unused">
          Unused: {placement.unused_inhabitants} inhabitant{placement.unused_inhabitants === 1 ? "" : "s"}, {placement.unused_energy} energy
          {absorbing.size ? ` (${absorbing.size} absorbed by parks)` : ""}
        </p>
      )}
      {p.showBreakdown && score && <Breakdown score={score} />}
      {p.children}
    </article>
  );
}

export function Breakdown({ score }: { score: Score }) {
  const rows = CATEGORY_ORDER.filter((k) => (score.breakdown[k] ?? 0) !== 0);
  return (
    <details class="breakdown">
      <summary>Score breakdown</summary>
      <table>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={2}>nothing scores yet</td>
            </tr>
          )}
          {rows.map((k) => (
            <tr key={k}>
              <th scope="row">{CATEGORY_NAMES[k]}</th>
              <td>{score.breakdown[k]}</td>
            </tr>
          ))}
          <tr class="total">
            <th scope="row">total</th>
            <td>{score.total}</td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}
