// A player's profile page (`/?player=NAME`): ratings by mode with their uncertainty,
// the rating history chart, statistics by mode and player count, and the games played with
// links to their replays (which show their reviews). Everything comes computed from the
// server's GET /api/players/{username}; this page only lays it out.
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api";
import { t, type Key } from "../i18n";
import { muSigma, number1, playedSeatName, ratingsApi, signed, type HistoryEntry, type PlayedGame, type PlayerProfile, type Statistics } from "../ratings";
import { linkTo } from "../route";
import { RatingChart } from "./RatingChart";
import "../ratings.css";

const modeName = (mode: string) => t(mode === "expert" ? "mode.expert" : "mode.classic");
const date = (seconds: number) => new Date(seconds * 1000).toLocaleDateString();

export function ProfilePage({ username }: { username: string }) {
  const [profile, setProfile] = useState<PlayerProfile | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    ratingsApi.profile(username).then(setProfile, (err: unknown) =>
      setError(err instanceof ApiError && err.code === "not_found" ? t("profile.notFound") : t("profile.failed")),
    );
  }, [username]);
  if (error) {
    return (
      <main class="profile-page" id="main">
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      </main>
    );
  }
  if (!profile) {
    return (
      <main class="profile-page" id="main" aria-busy="true">
        <p class="muted">{t("profile.loading")}</p>
      </main>
    );
  }
  return (
    <main class="profile-page" id="main" data-testid="profile">
      <h1>{profile.username}</h1>
      <p class="muted">{t("profile.since", { date: date(profile.joined), count: profile.games_played })}</p>
      <RatingCards profile={profile} />
      <StatisticsPanel stats={profile.statistics} />
      <GamesPanel games={profile.games} />
    </main>
  );
}

function RatingCards({ profile }: { profile: PlayerProfile }) {
  return (
    <section class="panel" aria-labelledby="ratings-title">
      <h2 id="ratings-title" class="panel-title">
        {t("profile.ratings")}
      </h2>
      {profile.ratings.length === 0 && <p class="muted">{t("profile.unrated")}</p>}
      <div class="rating-cards">
        {profile.ratings.map((r) => (
          <div key={r.mode} class="rating-card" data-testid={`rating-${r.mode}`}>
            <h3>{modeName(r.mode)}</h3>
            <p class="rating-big">{number1(r.rating)}</p>
            <p class="muted small">
              {muSigma(r)} · {t("rating.games", { count: r.games })}
            </p>
            <RatingChart points={profile.history.filter((h: HistoryEntry) => h.mode === r.mode)} label={t("profile.chart", { mode: modeName(r.mode) })} />
          </div>
        ))}
      </div>
      <p class="muted small">{t("rating.explain")}</p>
    </section>
  );
}

function StatisticsPanel({ stats }: { stats: Statistics[] }) {
  if (stats.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="stats-title">
      <h2 id="stats-title" class="panel-title">
        {t("profile.statistics")}
      </h2>
      <div class="stats-grid">
        {stats.map((s) => (
          <div key={`${s.mode}-${s.players}`} class="stats-card" data-testid={`stats-${s.mode}-${s.players}`}>
            <h3>{t("profile.group", { mode: modeName(s.mode), count: s.players })}</h3>
            <p>
              {t("profile.groupLine", { games: s.games, wins: s.wins, average: number1(s.average), best: s.best })}
            </p>
            <CategoryBars categories={s.categories} />
          </div>
        ))}
      </div>
    </section>
  );
}

function CategoryBars({ categories }: { categories: Record<string, number> }) {
  const entries = Object.entries(categories).filter(([, v]) => v !== 0);
  const top = Math.max(1, ...entries.map(([, v]) => Math.abs(v)));
  return (
    <table class="category-bars">
      <caption class="sr-only">{t("profile.byCategory")}</caption>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{t(`category.${k}` as Key)}</th>
            <td class="bar-cell">
              <span class={`cat-bar ${v < 0 ? "cat-bar-negative" : ""}`} style={{ width: `${(Math.abs(v) / top) * 100}%` }} />
            </td>
            <td class="num">{number1(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function GamesPanel({ games }: { games: PlayedGame[] }) {
  return (
    <section class="panel" aria-labelledby="played-title">
      <h2 id="played-title" class="panel-title">
        {t("profile.games")}
      </h2>
      {games.length === 0 ? (
        <p class="muted">{t("profile.noGames")}</p>
      ) : (
        <table class="played-games">
          <thead>
            <tr>
              <th scope="col">{t("profile.date")}</th>
              <th scope="col">{t("profile.table")}</th>
              <th scope="col">{t("profile.place")}</th>
              <th scope="col">{t("profile.score")}</th>
              <th scope="col">{t("profile.change")}</th>
              <th scope="col">
                <span class="sr-only">{t("end.replay")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {games.map((g) => (
              <PlayedRow key={`${g.game}-${g.seat}`} g={g} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PlayedRow({ g }: { g: PlayedGame }) {
  return (
    <tr data-testid={`played-${g.game}`}>
      <td>{date(g.finished_at)}</td>
      <td>
        <b>{modeName(g.mode)}</b> {g.seats.map(playedSeatName).join(", ")}
      </td>
      <td class="num">{t("profile.placeOf", { place: g.place, players: g.players })}</td>
      <td class="num">{t("table.vp", { score: g.score })}</td>
      <td class="num">{g.rating ? `${number1(g.rating.after.rating)} (${signed(g.rating.change)})` : t("profile.unratedGame")}</td>
      <td class="played-links">
        <a class="btn btn-small" href={g.replay} onClick={linkTo(g.replay)}>
          {t("profile.replay")}
        </a>
        {g.reviewed && (
          <a class="btn btn-small" href={`${g.replay}&review=1`} onClick={linkTo(`${g.replay}&review=1`)} data-testid="played-review">
            {t("profile.review")}
          </a>
        )}
      </td>
    </tr>
  );
}
