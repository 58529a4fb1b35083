// A player's city: 4x4 (Classic, four quarter districts) or 4x5 (Expert, with the printed
// square numbers and five districts), its buildings and stacks, and during a build the
// squares the player may use; at the end, the optimal placement of its resources.
import { t } from "../i18n";
import type { ComponentChildren } from "preact";
import { cityShape, district, squareName, squareNumber } from "../board";
import type { CityMark } from "../marks";
import { signed, type BuildValue } from "../play";
import { TEXT } from "../text";
import { seatKindWords, seatName } from "../seats";
import { CATEGORY_NAMES, CATEGORY_ORDER, describeBuilding } from "../tiles";
import type { Building, Placement, Score, View } from "../types";
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
  /** Each legal build's worth against a discard (now, and once fed). */
  buildValues?: Map<string, BuildValue>;
  /** Touch: the square tapped once, waiting for its second tap. */
  armed?: string | null;
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
  const score: Score | undefined = view.scores[seat];
  const name = seatName(view.seats[seat], seat);
  const { rows, cols } = cityShape(mode);
  const toMove = view.status === "playing" && view.to_move === seat;
  const placed = placedSets(p.placement ?? null);
  const markBySquare = new Map((p.marks ?? []).map((m) => [m.square, m]));
  const cells = [];
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= cols; c++) cells.push(<Cell key={squareName(r, c)} p={p} placed={placed} mark={markBySquare.get(squareName(r, c))} row={r} col={c} />);
  }
  return (
    <article
      class={`city-card seat-${seat}${p.large ? " city-large" : ""}${p.mine ? " city-mine" : ""}${toMove ? " city-to-move" : ""}`}
      aria-label={t("table.cityOf", { name })}
      data-seat={seat}
    >
      <CityHead view={view} seat={seat} large={p.large} mine={p.mine} />
      <CityStats view={view} seat={seat} toMove={toMove} />
      <div
        class={`city-grid mode-${mode}`}
        style={{ gridTemplateColumns: `repeat(${cols}, 1fr)` }}
        role="group"
        aria-label={`${name}'s city, ${rows} rows by ${cols} columns`}
      >
        {cells}
      </div>
      {placed.placement && (placed.placement.unused_inhabitants > 0 || placed.placement.unused_energy > 0) && (
        <p class="unused">
          Unused: {placed.placement.unused_inhabitants} inhabitant{placed.placement.unused_inhabitants === 1 ? "" : "s"}, {placed.placement.unused_energy} energy
          {placed.absorbing.size ? ` (${placed.absorbing.size} absorbed by parks)` : ""}
        </p>
      )}
      {p.showBreakdown && score && <Breakdown score={score} />}
      {p.children}
    </article>
  );
}

/** The final placement (when shown) as sets of squares. */
interface Placed {
  placement: Placement | null;
  removed: Set<string>;
  activated: Set<string>;
  absorbing: Set<string>;
}

function placedSets(placement: Placement | null): Placed {
  return {
    placement,
    removed: new Set(placement?.removed ?? []),
    activated: new Set(placement?.activated ?? []),
    absorbing: new Set(placement?.absorbing_parks ?? []),
  };
}

function CityHead({ view, seat, large, mine }: { view: View; seat: number; large?: boolean; mine?: boolean }) {
  const seatInfo = view.seats[seat];
  const score: Score | undefined = view.scores[seat];
  return (
    <header class="city-head">
      <SeatMark seat={seat} size={large ? 28 : 22} />
      <div class="city-who">
        <h3 class="city-name">
          {seatName(seatInfo, seat)}
          {mine && <span class="you-tag">{t("table.you")}</span>}
        </h3>
        <span class="city-kind">
          {seatInfo && seatKindWords(seatInfo)}
          {seatInfo?.kind === "human" && !seatInfo.open && (
            <span class={`presence ${seatInfo.present || seatInfo.bot_playing ? "on" : "off"}`} aria-hidden="true" />
          )}
        </span>
      </div>
      {view.state.mayor === seat && (
        <span class="mayor-badge" title={t("table.mayor")}>
          <MayorIcon />
          <span class="sr-only">{t("table.mayor")}</span>
        </span>
      )}
      <div class="city-score" title={t("table.projected")}>
        <strong data-testid={`score-${seat}`}>{score?.total ?? 0}</strong>
        <span>{view.status === "over" ? t("table.final") : t("table.vpNow")}</span>
      </div>
    </header>
  );
}

function CityStats({ view, seat, toMove }: { view: View; seat: number; toMove: boolean }) {
  const player = view.state.players[seat];
  const architects = view.state.architects;
  const usedHere = Array.isArray(architects) ? (architects[seat] ?? []) : null;
  return (
    <div class="city-stats">
      <span class="stat" title={t("city.inhabitants")}>
        <PersonIcon class="stat-icon inh" />
        <b>{player?.inhabitants ?? 0}</b>
        <span class="sr-only">{t("city.inhabitants")}</span>
      </span>
      <span class="stat" title={t("city.energy")}>
        <EnergyIcon class="stat-icon nrg" />
        <b>{player?.energy ?? 0}</b>
        <span class="sr-only">{t("city.energy")}</span>
      </span>
      {usedHere && view.status === "playing" && (
        <span class="stat arch-left" title={t("city.architectsLeftTitle")}>
          <span class="sr-only">{t("city.architectsLeft")}</span>
          {[1, 2, 3, 4].map((n) => (
            <span key={n} class={`arch-chip${usedHere.includes(n) ? " used" : ""}`} aria-hidden={usedHere.includes(n) ? "true" : undefined}>
              {n}
            </span>
          ))}
        </span>
      )}
      {toMove && <span class="turn-flag">{view.phase === "place" ? t("table.building") : t("table.toPlay")}</span>}
    </div>
  );
}

/** What a city square shows: its building, its district edges, and what it offers or received. */
interface CellFacts {
  sq: string;
  building: Building | null;
  number: number | null;
  district: number;
  eligible: boolean;
  /** The pending building would go on top of this one. */
  stack: boolean;
  buildScore: number | undefined;
  value: BuildValue | undefined;
  customers: number;
}

function cellFacts(p: CityProps, placed: Placed, row: number, col: number): CellFacts {
  const mode = p.view.config.mode;
  const sq = squareName(row, col);
  const building = p.view.state.players[p.seat]?.city[row - 1]?.[col - 1] ?? null;
  const eligible = p.eligible?.has(sq) ?? false;
  return {
    sq,
    building,
    number: squareNumber(mode, row, col),
    district: district(mode, row, col),
    eligible,
    stack: eligible && building !== null,
    buildScore: p.buildScores?.get(sq),
    value: p.buildValues?.get(sq),
    customers: placed.placement?.customers[sq] ?? 0,
  };
}

function cellLabel(f: CellFacts, placed: Placed, mark: CityMark | undefined): string {
  const b = f.building;
  const where = f.number ? t("cellLabel.numbered", { square: f.sq, number: f.number, district: f.district }) : t("cellLabel.square", { square: f.sq, district: f.district });
  const parts = [`${where}: ${b ? describeBuilding(b) : t("cellLabel.empty")}`];
  if (placed.placement && b) {
    if (placed.removed.has(f.sq)) parts.push(t("end.removed"));
    else if (placed.activated.has(f.sq)) parts.push(t("end.activated"));
    if (f.customers) parts.push(t("city.customers", { count: f.customers }));
    if (placed.absorbing.has(f.sq)) parts.push(t("city.absorbs"));
  }
  if (f.eligible) parts.push(t(f.stack ? "cellLabel.mayStack" : "cellLabel.mayBuild"));
  let label = parts.join("; ");
  if (f.buildScore !== undefined) {
    const projected = t("cellLabel.projected", { score: f.buildScore });
    label += ` (${f.value ? `${projected}; ${valueWords(f.value)}` : projected})`;
  }
  if (mark) label += `; ${t("cellLabel.hint", { rank: mark.rank })}`;
  return label;
}

function Cell({ p, placed, mark, row, col }: { p: CityProps; placed: Placed; mark: CityMark | undefined; row: number; col: number }) {
  const { rows, cols } = cityShape(p.view.config.mode);
  const f = cellFacts(p, placed, row, col);
  const d = f.district;
  const right = col < cols && district(p.view.config.mode, row, col + 1) !== d;
  const below = row < rows && district(p.view.config.mode, row + 1, col) !== d;
  const classes = [
    "cell",
    `district-${d}`,
    right ? "edge-right" : "",
    below ? "edge-below" : "",
    f.building ? "cell-built" : "cell-empty",
    f.eligible ? "cell-eligible" : "",
    p.interactive && !f.eligible ? "cell-ineligible" : "",
    p.lastSquare === f.sq ? "cell-last" : "",
    p.armed === f.sq ? "cell-armed" : "",
    placed.removed.has(f.sq) ? "cell-removed" : "",
    mark ? "cell-mark" : "",
  ].join(" ");
  const body = <CellBody f={f} placed={placed} mark={mark} label={cellLabel(f, placed, mark)} />;
  return p.interactive ? (
    <button type="button" class={classes} data-square={f.sq} aria-disabled={f.eligible ? undefined : "true"} onClick={() => p.onSquare?.(f.sq)}>
      {body}
    </button>
  ) : (
    <div class={classes} data-square={f.sq}>
      {body}
    </div>
  );
}

function CellBody({ f, placed, mark, label }: { f: CellFacts; placed: Placed; mark: CityMark | undefined; label: string }) {
  const { sq, building: b, customers } = f;
  const { placement, removed, activated, absorbing } = placed;
  return (
    <>
      {f.number !== null && (
        <span class="cell-number" aria-hidden="true">
          {f.number}
        </span>
      )}
      {b && <BuildingFace building={b} />}
      {placement && b && !removed.has(sq) && (activated.has(sq) || b.type === "park" || b.type === "monument") && (
        <span class="placed placed-on" aria-hidden="true" title={t("end.activated")}>
          <CheckIcon />
        </span>
      )}
      {placement && removed.has(sq) && (
        <span class="placed placed-removed" aria-hidden="true" title={t("city.removed")}>
          <CrossIcon />
        </span>
      )}
      {customers > 0 && (
        <span class="placed-customers" aria-hidden="true" title={t("city.customers", { count: customers })}>
          {Array.from({ length: customers }, (_, i) => (
            <PersonIcon key={i} />
          ))}
        </span>
      )}
      {absorbing.has(sq) && (
        <span class="placed placed-absorb" aria-hidden="true" title={t("city.absorbs")}>
          <LeafIcon />
        </span>
      )}
      {f.eligible && (
        <span class="cell-build" aria-hidden="true" title={f.value ? valueTitle(f.value) : undefined}>
          {f.stack ? "+1" : "+"}
          {f.value ? <BuildValueMarks value={f.value} /> : f.buildScore !== undefined && <small>{t("table.vp", { score: f.buildScore })}</small>}
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
}

function valueWords(v: BuildValue): string {
  return TEXT.buildValueWords(signed(v.now), v.fed === null ? "?" : signed(v.fed));
}

function valueTitle(v: BuildValue): string {
  return TEXT.buildValueTitle(signed(v.now), v.fed === null ? "?" : signed(v.fed));
}

/** A build's worth, drawn small on its square: the change now, and once the city is fed.
 * `--chars` (the longer line's length) lets the CSS shrink the words to the square's width,
 * whatever the language's words for "now" and "fed". */
function BuildValueMarks({ value }: { value: BuildValue }) {
  const now = `${signed(value.now)} ${TEXT.buildNow}`;
  const fed = value.fed === null ? null : `${signed(value.fed)} ${TEXT.buildFed}`;
  const chars = Math.max(now.length, fed?.length ?? 0);
  return (
    <span class="build-value" style={{ "--chars": chars }}>
      <small class={`bv-now${value.now < 0 ? " neg" : ""}`}>{now}</small>
      {fed !== null && value.fed !== null && <small class={`bv-fed${value.fed > 0 ? " pos" : value.fed < 0 ? " neg" : ""}`}>{fed}</small>}
    </span>
  );
}

export function Breakdown({ score }: { score: Score }) {
  const rows = CATEGORY_ORDER.filter((k) => (score.breakdown[k] ?? 0) !== 0);
  return (
    <details class="breakdown">
      <summary>{t("table.scoreBreakdown")}</summary>
      <table>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={2}>{t("table.nothingScores")}</td>
            </tr>
          )}
          {rows.map((k) => (
            <tr key={k}>
              <th scope="row">{CATEGORY_NAMES[k]}</th>
              <td>{score.breakdown[k]}</td>
            </tr>
          ))}
          <tr class="total">
            <th scope="row">{TEXT.guideTotal}</th>
            <td>{score.total}</td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}
