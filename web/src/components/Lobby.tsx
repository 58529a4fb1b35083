// The lobby: a new game (components/NewGame.tsx), learning to play with the guided first
// game, the account, the leaderboard, the lists of games (components/GameLists.tsx) and
// opening a record.
import { useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { guidedGame, setGuidedGame } from "../guide";
import { errorText, t } from "../i18n";
import { guidedSpec } from "../newGame";
import { gameUrl, linkTo, navigate, replayUrl } from "../route";
import { TEXT } from "../text";
import { loadTokens, playerName, saveToken } from "../tokens";
import type { Created } from "../types";
import { useLevelDescriptions } from "../useLobby";
import { AccountPanel } from "./Account";
import { GameList, YourGames } from "./GameLists";
import { BuildingIcon } from "./Icons";
import { Leaderboard } from "./Leaderboard";
import { Invites } from "./Invites";
import { NewGame } from "./NewGame";

export function Lobby() {
  const [created, setCreated] = useState<Created | null>(null);
  const levels = useLevelDescriptions();
  return (
    <main class="lobby" id="main">
      <section class="hero">
        <div class="hero-art" aria-hidden="true">
          {(["tower_block", "shop", "park", "harbor", "factory", "public_service"] as const).map((t) => (
            <span key={t} class={`hero-tile tile-${t}`}>
              <BuildingIcon type={t} />
            </span>
          ))}
        </div>
        <div>
          <h1>Quadropolis</h1>
          <p class="lead">{t("lobby.lead")}</p>
        </div>
      </section>
      <div class="lobby-grid">
        <div class="lobby-start">
          <LearnToPlay />
          {created ? <Invites created={created} onClose={() => setCreated(null)} /> : <NewGame onCreated={setCreated} levels={levels} />}
        </div>
        <div class="lobby-lists">
          <AccountPanel />
          <Leaderboard />
          <YourGames />
          <GameList status="waiting" title={t("lobby.waiting")} empty={t("lobby.waitingEmpty")} />
          <GameList status="playing" title={t("lobby.playing")} empty={t("lobby.playingEmpty")} hideOnError />
          <GameList status="over" title={t("lobby.over")} empty={t("lobby.overEmpty")} />
          <section class="panel">
            <h2 class="panel-title">{t("lobby.record")}</h2>
            <p>{t("lobby.recordLead", { format: "quadropolis-game/1" })}</p>
            <a class="btn" href={replayUrl(null)} onClick={linkTo(replayUrl(null))}>
              {t("lobby.recordOpen")}
            </a>
          </section>
        </div>
      </div>
    </main>
  );
}

/** "Learn to play": starts the guided first game, or resumes the one this browser holds. */
function LearnToPlay() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resume] = useState(() => {
    const game = guidedGame();
    return game && Object.keys(loadTokens(game)).length > 0 ? game : null;
  });
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const c = await api.create(guidedSpec(playerName() || t("lobby.defaultName")));
      for (const s of c.seats) saveToken(c.game, s.seat, s.token);
      setGuidedGame(c.game);
      navigate(gameUrl(c.game));
    } catch (err) {
      setError(err instanceof ApiError ? errorText(err.code, err.message) : t("lobby.createFailed"));
      setBusy(false);
    }
  };
  return (
    <section class="panel learn" aria-labelledby="learn-title">
      <h2 id="learn-title" class="panel-title">
        {TEXT.learnTitle}
      </h2>
      <p>{TEXT.learnLead}</p>
      <div class="row">
        <button type="button" class="btn btn-primary" disabled={busy} onClick={() => void start()} data-testid="learn">
          {busy ? TEXT.learnBusy : TEXT.learnButton}
        </button>
        {resume && (
          <a class="btn" href={gameUrl(resume)} onClick={linkTo(gameUrl(resume))} data-testid="learn-resume">
            {TEXT.learnResume}
          </a>
        )}
      </div>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
