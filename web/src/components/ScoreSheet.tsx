// The score pad: one row per category, one column per player, the total, and the
// tie-breakers of R13 (inhabitants placed, empty squares).
import { t } from "../i18n";
import { seatName } from "../seats";
import { MODE_CATEGORIES } from "../game.gen";
import { CATEGORY_NAMES } from "../tiles";
import type { View } from "../types";
import { BuildingIcon, EnergyIcon, PersonIcon } from "./Icons";
import { SeatMark } from "./SeatMark";

export function ScoreSheet({ view, caption }: { view: View; caption?: string }) {
  const seats = view.scores.map((_, i) => i);
  const cats = MODE_CATEGORIES[view.config.mode];
  const winners = new Set(view.result?.winners ?? []);
  return (
    <table class="score-sheet">
      <caption>{caption ?? (view.status === "over" ? t("score.final") : t("score.projected"))}</caption>
      <thead>
        <tr>
          <th scope="col">
            <span class="sr-only">{t("score.category")}</span>
          </th>
          {seats.map((s) => (
            <th scope="col" key={s} class={winners.has(s) ? "winner" : ""}>
              <SeatMark seat={s} size={18} />
              <span class="sheet-name">{seatName(view.seats[s], s)}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {cats.map((k) => (
          <tr key={k}>
            <th scope="row">
              <span class={`cat-icon tile-${k}`} aria-hidden="true">
                {k === "unused_inhabitants" ? <PersonIcon /> : k === "pollution" ? <EnergyIcon /> : <BuildingIcon type={k} />}
              </span>
              {CATEGORY_NAMES[k]}
            </th>
            {seats.map((s) => {
              const v = view.scores[s]?.breakdown[k] ?? 0;
              return (
                <td key={s} class={v < 0 ? "neg" : v === 0 ? "zero" : ""}>
                  {v}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr class="total">
          <th scope="row">{t("score.total")}</th>
          {seats.map((s) => (
            <td key={s} data-testid={`sheet-total-${s}`} class={winners.has(s) ? "winner" : ""}>
              {view.scores[s]?.total ?? 0}
            </td>
          ))}
        </tr>
        <tr class="tiebreak">
          <th scope="row">{t("score.placed")}</th>
          {seats.map((s) => (
            <td key={s}>{view.scores[s]?.inhabitants_placed ?? 0}</td>
          ))}
        </tr>
        <tr class="tiebreak">
          <th scope="row">{t("score.empty")}</th>
          {seats.map((s) => (
            <td key={s}>{view.scores[s]?.empty_squares ?? 0}</td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}
