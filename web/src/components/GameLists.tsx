// The lobby's lists: public games waiting for players, running games to watch, finished
// games to replay (the server's, kept fresh by `useGameList`), and this browser's own games.
import { useState } from "preact/hooks";
import { language, t } from "../i18n";
import { gameUrl, linkTo, replayUrl } from "../route";
import { seatName } from "../seats";
import { loadTokens, recentGames } from "../tokens";
import type { GameListEntry } from "../types";
import { useGameList, type ListStatus } from "../useLobby";
import { SeatMark } from "./SeatMark";

function describeSeats(g: GameListEntry) {
  return (
    <span class="list-seats">
      {g.seats.map((s, i) => (
        <span key={i} class="list-seat" title={seatName(s, i)}>
          <SeatMark seat={i} size={16} />
          <span>{s.open ? t("lobby.open") : seatName(s, i)}</span>
        </span>
      ))}
    </span>
  );
}

function when(at: number | string | null): string {
  if (at === null) return "";
  const d = typeof at === "number" ? new Date(at * 1000) : new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  const mins = Math.round((Date.now() - d.getTime()) / 60000);
  if (mins < 1) return t("lobby.justNow");
  if (mins < 60) return t("lobby.minAgo", { count: mins });
  if (mins < 48 * 60) return t("lobby.hoursAgo", { count: Math.round(mins / 60) });
  return d.toLocaleDateString(language());
}

export function GameList({ status, title, empty, hideOnError }: { status: ListStatus; title: string; empty: string; hideOnError?: boolean }) {
  const { games, error } = useGameList(status);
  if (error && hideOnError) return null;
  return (
    <section class="panel game-list" aria-labelledby={`list-${status}`}>
      <h2 id={`list-${status}`} class="panel-title">
        {title}
      </h2>
      {error ? (
        <p class="muted">{t("lobby.listFailed", { error })}</p>
      ) : games === null ? (
        <p class="muted">{t("lobby.loading")}</p>
      ) : games.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="games" data-testid={`games-${status}`}>
          {games.map((g) => (
            <GameRow key={g.game} g={g} status={status} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GameRow({ g, status }: { g: GameListEntry; status: ListStatus }) {
  return (
    <li class="game-row">
      <div class="game-row-main">
        <span>
          <b>{t(g.config.mode === "expert" ? "mode.expert" : "mode.classic")}</b>, {t("lobby.playerCount", { count: g.config.players })}
          <span class="muted small"> · {when(status === "over" ? g.finished_at : g.created_at)}</span>
        </span>
        {describeSeats(g)}
        {status === "over" && g.result && (
          <span class="list-result">
            {g.result.scores.map((s, i) => (
              <span key={i} class={g.result!.winners.includes(i) ? "winner" : ""}>
                {s}
                {i < g.result!.scores.length - 1 ? " – " : ""}
              </span>
            ))}
          </span>
        )}
      </div>
      <GameRowActions g={g} status={status} />
    </li>
  );
}

function GameRowActions({ g, status }: { g: GameListEntry; status: ListStatus }) {
  return (
    <div class="game-row-actions">
      {status === "waiting" &&
        g.seats
          .filter((s) => s.open)
          .map((s) => (
            <a key={s.seat} class="btn btn-small btn-primary" href={`/?game=${g.game}&join=${s.seat}`} onClick={linkTo(`/?game=${g.game}&join=${s.seat}`)}>
              {t("lobby.join", { seat: s.seat + 1 })}
            </a>
          ))}
      {status === "playing" && (
        <a class="btn btn-small" href={gameUrl(g.game)} onClick={linkTo(gameUrl(g.game))}>
          {t("lobby.watch")}
        </a>
      )}
      {status === "over" && (
        <>
          <a class="btn btn-small btn-primary" href={replayUrl(g.game)} onClick={linkTo(replayUrl(g.game))}>
            {t("lobby.replay")}
          </a>
          <a class="btn btn-small" href={gameUrl(g.game)} onClick={linkTo(gameUrl(g.game))}>
            {t("lobby.finalTable")}
          </a>
        </>
      )}
    </div>
  );
}

export function YourGames() {
  const [games] = useState(() => recentGames().filter((g) => Object.keys(loadTokens(g)).length > 0).slice(0, 6));
  if (games.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="your-games">
      <h2 id="your-games" class="panel-title">
        {t("lobby.yourGames")}
      </h2>
      <ul class="games">
        {games.map((g) => {
          return (
            <li key={g} class="game-row">
              <span>
                {t("lobby.game")} <code>{g}</code>
              </span>
              <a class="btn btn-small" href={gameUrl(g)} onClick={linkTo(gameUrl(g))}>
                {t("lobby.openGame")}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
