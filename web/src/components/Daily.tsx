// The daily challenge: the day's page (its format, a button to play it,
// the leaderboard, the best cities) and, on a daily game's end screen, the player's result
// with a line to share and the day's best cities to compare with.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { errorText, t } from "../i18n";
import { placementOf } from "../play";
import { dailyUrl, gameUrl, linkTo, navigate } from "../route";
import { LEVEL_NAMES } from "../seats";
import { shareText, socialApi, type BoardLine, type Daily } from "../social";
import { playerName, saveToken } from "../tokens";
import type { View } from "../types";
import { City } from "./City";
import { CopyButton } from "./CopyButton";

type Loaded<T> = T | null | "missing";

function useDaily(load: () => Promise<Daily>, key: string): [Loaded<Daily>, string | null] {
  const [daily, setDaily] = useState<Loaded<Daily>>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setDaily(null);
    load().then(
      (d) => live && setDaily(d),
      (e: unknown) => {
        if (!live) return;
        if (e instanceof ApiError && e.code === "not_found") setDaily("missing");
        else setError(e instanceof ApiError ? errorText(e.code, e.message) : String(e));
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return [daily, error];
}

function formatWords(d: Daily): string {
  const mode = t(d.mode === "expert" ? "mode.expert" : "mode.classic");
  const bots = d.opponents.map((l) => LEVEL_NAMES[l] ?? l).join(", ");
  return t("daily.format", { mode, count: d.players, bots });
}

export function DailyPage({ day }: { day: string | null }) {
  const [daily, error] = useDaily(() => socialApi.daily(day), day ?? "today");
  return (
    <main class="page daily-page" id="main" data-testid="daily-page">
      <h1>{t("daily.title")}</h1>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {daily === "missing" && <p>{t("daily.noDay")}</p>}
      {daily && daily !== "missing" && <DailyBoard daily={daily} />}
    </main>
  );
}

function DailyBoard({ daily }: { daily: Daily }) {
  return (
    <>
      <p class="lead">
        <strong data-testid="daily-day">{daily.day}</strong> · {formatWords(daily)}
      </p>
      <p class="muted">{t("daily.lead")}</p>
      {daily.today && <PlayDaily daily={daily} />}
      <Leaderboard lines={daily.leaderboard} mine={daily.you?.game ?? null} />
      <TopCities top={daily.top} />
      <p>
        <a href={dailyUrl(previousDay(daily.day))} onClick={linkTo(dailyUrl(previousDay(daily.day)))}>
          {t("daily.previous")}
        </a>
      </p>
    </>
  );
}

function previousDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function PlayDaily({ daily }: { daily: Daily }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (daily.you) {
    return (
      <p class="notice" data-testid="daily-played">
        {t("daily.played")}{" "}
        <a href={gameUrl(daily.you.game)} onClick={linkTo(gameUrl(daily.you.game))}>
          {t("daily.yourGame")}
        </a>
      </p>
    );
  }
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const made = await socialApi.startDaily(playerName() || t("lobby.defaultName"));
      for (const s of made.seats) saveToken(made.game, s.seat, s.token);
      navigate(gameUrl(made.game));
    } catch (e) {
      setError(e instanceof ApiError ? errorText(e.code, e.message) : String(e));
      setBusy(false);
    }
  };
  return (
    <div class="daily-play">
      <button type="button" class="btn btn-primary" disabled={busy} onClick={() => void start()} data-testid="daily-start">
        {t("daily.play")}
      </button>
      <p class="muted small">{t("daily.guests")}</p>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function Leaderboard({ lines, mine }: { lines: BoardLine[]; mine: string | null }) {
  if (lines.length === 0) return <p class="muted">{t("daily.empty")}</p>;
  return (
    <table class="daily-board" data-testid="daily-board">
      <caption>{t("daily.board")}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t("daily.player")}</th>
          <th scope="col">{t("daily.place")}</th>
          <th scope="col">VP</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.rank} class={l.game !== null && l.game === mine ? "mine" : ""}>
            <td>{l.rank}</td>
            <td>{l.username}</td>
            <td>{t("daily.atTable", { place: l.place, count: l.of })}</td>
            <td>{l.vp}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The final cities of the day's best games, drawn from each game's own view. */
function TopCities({ top }: { top: Daily["top"] }) {
  const [views, setViews] = useState<(View | null)[]>([]);
  const key = top.map((e) => e.game).join(",");
  useEffect(() => {
    let live = true;
    void Promise.all(top.map((e) => api.view(e.game).catch(() => null))).then((v) => live && setViews(v));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (top.length === 0) return null;
  return (
    <section class="daily-cities" aria-labelledby="daily-cities-title">
      <h2 id="daily-cities-title">{t("daily.best")}</h2>
      <div class="cities-grid">
        {top.map((e, i) => {
          const v = views[i];
          return v ? <City key={e.game} view={v} seat={e.seat} placement={placementOf(v, e.seat)} /> : null;
        })}
      </div>
    </section>
  );
}

/** On a daily game's end screen: the result, a line to share, the day's best cities. */
export function DailyResult({ game }: { game: string }) {
  const [daily] = useDaily(() => socialApi.dailyOfGame(game), game);
  if (!daily || daily === "missing" || !daily.game || daily.game.vp === null) return null;
  const line = daily.you?.line ?? null;
  const mine = daily.game;
  const text = line
    ? shareText(daily, mine.vp ?? 0, line.rank, daily.leaderboard.length, true)
    : shareText(daily, mine.vp ?? 0, mine.place ?? 1, mine.of ?? daily.players, false);
  return (
    <section class="panel daily-result" aria-labelledby="daily-result-title" data-testid="daily-result">
      <h2 id="daily-result-title" class="panel-title">
        {t("daily.title")} {daily.day}
      </h2>
      <p>{mine.ranked ? t("daily.ranked", { rank: line?.rank ?? "?", count: daily.leaderboard.length }) : t("daily.unranked")}</p>
      <CopyButton text={text} label={t("daily.shareLabel")} />
      <p>
        <a href={dailyUrl(daily.day)} onClick={linkTo(dailyUrl(daily.day))} data-testid="daily-board-link">
          {t("daily.seeBoard")}
        </a>
      </p>
      <TopCities top={daily.top} />
    </section>
  );
}
