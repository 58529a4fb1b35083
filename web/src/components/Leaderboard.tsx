// The lobby's leaderboard: the rated players of a mode — accounts and bot levels —
// best shown rating (μ − 3σ) first, as GET /api/leaderboard gives them. Names of accounts link
// to their profiles.
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n";
import { muSigma, number1, profileUrl, ratedName, ratingsApi, type RatedMode, type RatedPlayer } from "../ratings";
import { linkTo } from "../route";
import "../ratings.css";

export function Leaderboard() {
  const [mode, setMode] = useState<RatedMode>("classic");
  const [players, setPlayers] = useState<RatedPlayer[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setPlayers(null);
    ratingsApi.leaderboard(mode).then(
      (board) => {
        setPlayers(board.players);
        setFailed(false);
      },
      () => setFailed(true),
    );
  }, [mode]);
  return (
    <section class="panel leaderboard" aria-labelledby="leaderboard-title" data-testid="leaderboard">
      <div class="panel-head">
        <h2 id="leaderboard-title" class="panel-title">
          {t("rating.leaderboard")}
        </h2>
        <div class="mode-switch" role="group" aria-label={t("rating.leaderboardMode")}>
          {(["classic", "expert"] as const).map((m) => (
            <button key={m} type="button" class={`btn btn-small ${m === mode ? "btn-primary" : ""}`} aria-pressed={m === mode} onClick={() => setMode(m)}>
              {t(m === "expert" ? "mode.expert" : "mode.classic")}
            </button>
          ))}
        </div>
      </div>
      {failed ? (
        <p class="muted">{t("rating.leaderboardFailed")}</p>
      ) : players === null ? (
        <p class="muted">{t("profile.loading")}</p>
      ) : players.length === 0 ? (
        <p class="muted">{t("rating.leaderboardEmpty")}</p>
      ) : (
        <LeaderboardTable players={players} />
      )}
    </section>
  );
}

function LeaderboardTable({ players }: { players: RatedPlayer[] }) {
  return (
    <table class="leaderboard-table">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t("rating.player")}</th>
          <th scope="col" class="num">
            {t("rating.rating")}
          </th>
          <th scope="col" class="num">
            {t("rating.gamesHeading")}
          </th>
        </tr>
      </thead>
      <tbody>
        {players.map((p) => (
          <tr key={`${p.username ?? ""}/${p.bot ?? ""}`} class={p.bot ? "bot-line" : ""}>
            <td class="num">{p.place}</td>
            <td>{p.username ? <a href={profileUrl(p.username)} onClick={linkTo(profileUrl(p.username))}>{p.username}</a> : ratedName(p)}</td>
            <td class="num" title={muSigma(p)}>
              <b>{number1(p.rating)}</b> <span class="muted small">{muSigma(p)}</span>
            </td>
            <td class="num">{p.games}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
