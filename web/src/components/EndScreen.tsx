// The end of a game: the ranking and what settled it (R13), the score pad, and every city
// with its optimal final placement (activated buildings, customers, absorbing parks,
// removed buildings) when the server gives it.
import { t } from "../i18n";
import { placementOf, ranking, tieBreakWords } from "../play";
import { linkTo, replayUrl } from "../route";
import { ordinal, seatName } from "../seats";
import type { TileIndex } from "../tiles";
import type { ConnectionStatus } from "../socket";
import type { View } from "../types";
import type { GameHandle } from "../useGame";
import { ChatPanel, hasChat } from "./Chat";
import { City } from "./City";
import { DailyResult } from "./Daily";
import { RematchBar } from "./Rematch";
import { ConnectionBadge } from "./ConnectionBadge";
import { GameRatings } from "./GameRatings";
import { CheckIcon, CrossIcon, LeafIcon, PersonIcon, StarIcon } from "./Icons";
import { ActionLog } from "./Log";
import { ScoreSheet } from "./ScoreSheet";
import { SeatMark } from "./SeatMark";

export { placementOf };

export function EndSummary({ view }: { view: View }) {
  const ranks = ranking(view);
  const winners = view.result?.winners ?? [];
  const names = winners.map((w) => seatName(view.seats[w], w));
  const you = view.you ?? [];
  const title =
    winners.length > 1
      ? t("end.shared", { names: names.join(t("end.and")) })
      : winners.length === 1 && you.includes(winners[0]!) && you.length === 1
        ? t("end.youWin")
        : t("end.wins", { name: names[0] ?? t("end.nobody") });
  return (
    <section class="end-summary" aria-labelledby="end-title">
      <div class="trophy" aria-hidden="true">
        <StarIcon />
      </div>
      <h1 id="end-title" data-testid="end-title">
        {title}
      </h1>
      <p class="lead">{t("end.decidedBy", { reason: tieBreakWords(view) })}</p>
      <ol class="podium" aria-label={t("end.ranking")}>
        {ranks.map((r) => (
          <li key={r.seat} class={r.winner ? "winner" : ""} data-testid={`rank-${r.seat}`}>
            <span class="podium-rank">{ordinal(r.rank)}</span>
            <SeatMark seat={r.seat} size={26} />
            <span class="podium-name">
              {seatName(view.seats[r.seat], r.seat)}
              {r.forfeited && (
                <span class="podium-forfeit" data-testid={`forfeit-${r.seat}`}>
                  {" · "}
                  {t("end.forfeited")}
                </span>
              )}
            </span>
            <span class="podium-score" data-testid={`final-${r.seat}`}>
              {r.score} VP
            </span>
            <span class="podium-tie muted">
              {r.inhabitants} inhabitants placed · {r.empty} empty squares
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function PlacementLegend({ available }: { available: boolean }) {
  if (!available) {
    return <p class="muted small">{t("end.noPlacement")}</p>;
  }
  return (
    <ul class="legend" aria-label={t("end.legend")}>
      <li>
        <span class="placed placed-on legend-mark">
          <CheckIcon />
        </span>
        {t("end.activated")}
      </li>
      <li>
        <span class="legend-mark placed-customers">
          <PersonIcon />
        </span>
        {t("end.customers")}
      </li>
      <li>
        <span class="placed placed-absorb legend-mark">
          <LeafIcon />
        </span>
        {t("end.absorbing")}
      </li>
      <li>
        <span class="placed placed-removed legend-mark">
          <CrossIcon />
        </span>
        {t("end.removed")}
      </li>
    </ul>
  );
}

export function EndScreen({
  view,
  status,
  handle,
  tokens = {},
}: {
  view: View;
  tiles: TileIndex | null;
  status: ConnectionStatus;
  handle?: GameHandle;
  tokens?: Record<number, string>;
}) {
  const game = view.game ?? "";
  const seats = view.seats.map((_, i) => i);
  const hasPlacement = seats.some((s) => placementOf(view, s) !== null);
  return (
    <main class="end-page" id="main" data-status="over" data-version={view.version}>
      <div class="game-bar">
        <span class="game-id">
          {t("table.game")} <code>{game}</code> · {t(view.config.mode === "expert" ? "mode.expert" : "mode.classic")} · {t("end.over")}
        </span>
        <ConnectionBadge status={status} />
      </div>
      <div class="end-grid">
        <div class="end-main">
          <EndSummary view={view} />
          <GameRatings view={view} />
          <RematchBar game={game} tokens={tokens} offered={handle?.rematch ?? null} />
          <div class="end-actions">
            <a class="btn btn-primary" href={replayUrl(game)} onClick={linkTo(replayUrl(game))}>
              {t("end.replay")}
            </a>
            <a class="btn" href={`${replayUrl(game)}&review=1`} onClick={linkTo(`${replayUrl(game)}&review=1`)} data-testid="review-game">
              {t("end.review")}
            </a>
            <a class="btn" href={`/api/games/${encodeURIComponent(game)}/record`} download={`quadropolis-${game}.json`}>
              {t("end.download")}
            </a>
            <a class="btn" href="/" onClick={linkTo("/")}>
              {t("lobby.newGame")}
            </a>
          </div>
          <DailyResult game={game} />
          <ScoreSheet view={view} />
          {handle && hasChat(view) && <ChatPanel handle={handle} canWrite={(view.you ?? []).length > 0} />}
        </div>
        <div class="end-cities">
          <h2>{t("end.finalCities")}</h2>
          <PlacementLegend available={hasPlacement} />
          <div class="cities-grid">
            {seats.map((s) => (
              <City key={s} view={view} seat={s} mine={(view.you ?? []).includes(s)} placement={placementOf(view, s)} />
            ))}
          </div>
          <ActionLog actions={view.last_actions} seats={view.seats} title={t("log.gameTitle")} />
        </div>
      </div>
    </main>
  );
}
