// A game: the waiting room while seats are open, the table while it is played, the end
// screen once it is over. Every action goes through the websocket; the server's reasons for
// refusing one are shown as they are.
import { t } from "../i18n";
import { useEffect, useMemo, useState } from "preact/hooks";
import { useTiles } from "../hooks";
import { accountApi } from "../account";
import { actingSeat } from "../play";
import { badgeFavicon, notifyTurn } from "../turn";
import { linkTo } from "../route";
import { indexTiles } from "../tiles";
import { loadTokens, rememberGame, saveToken } from "../tokens";
import type { View } from "../types";
import { useGame } from "../useGame";
import { ConnectionBadge } from "./ConnectionBadge";
import { endedWithoutResult, GameEnded } from "./GameExit";
import { Table } from "./Table";
import { WaitingRoom } from "./WaitingRoom";

export function GamePage({ game, seat, token }: { game: string; seat: number | null; token: string | null }) {
  // A seat link's token is stored, then removed from the address bar (it stays in this browser).
  const [tokens, setTokens] = useState(() => {
    if (seat !== null && token) saveToken(game, seat, token);
    return loadTokens(game);
  });
  useEffect(() => {
    if (token) window.history.replaceState(null, "", `/?game=${encodeURIComponent(game)}${seat !== null ? `&seat=${seat}` : ""}`);
    rememberGame(game);
  }, [game, seat, token]);
  const tokenList = useMemo(() => Object.values(tokens), [tokens]);
  const handle = useGame(game, tokenList, useLoggedIn());
  const tiles = useTiles();
  const view = handle.view;
  const variants = view?.config.variants;
  const index = useMemo(() => (tiles && variants ? indexTiles(tiles, variants) : null), [tiles, variants]);

  useEffect(() => {
    if (view) document.title = titleFor(view);
  }, [view]);
  useTurnSignals(game, view);

  const badToken = handle.lastError?.code === "forbidden" && tokenList.length > 0 && (view?.you ?? []).length === 0;

  if (handle.status === "gone") {
    return (
      <main class="page narrow" id="main">
        <h1>{t("table.gameNotFound")}</h1>
        <p>{handle.statusDetail}</p>
        <p>
          <a class="btn" href="/" onClick={linkTo("/")}>
            {t("exit.back")}
          </a>
        </p>
      </main>
    );
  }
  if (!view) {
    return (
      <main class="page narrow" id="main" aria-busy="true">
        <h1 class="sr-only">Quadropolis game</h1>
        <p class="loading">
          <span class="spinner" aria-hidden="true" /> Opening the table…
        </p>
        <ConnectionBadge status={handle.status} />
      </main>
    );
  }
  if (endedWithoutResult(view)) return <GameEnded view={view} />;
  if (view.status === "waiting") {
    return (
      <WaitingRoom
        view={view}
        tokens={tokens}
        status={handle.status}
        onJoined={(s, t) => setTokens(saveToken(game, s, t))}
      />
    );
  }
  return (
    <>
      {badToken && (
        <p class="notice notice-error page-notice" role="alert">
          {t("page.badLink")}
        </p>
      )}
      <Table view={view} handle={handle} tiles={index} tokens={tokens} />
    </>
  );
}

/** Whether this browser is logged in (then the account's seats are played here too). */
function useLoggedIn(): boolean {
  const [me, setMe] = useState(false);
  useEffect(() => {
    accountApi.me().then(
      () => setMe(true),
      () => setMe(false),
    );
  }, []);
  return me;
}

/** The favicon's badge while it is this browser's turn, and a notification when the turn
 *  comes (once per turn: keyed by the view's version when it came). */
function useTurnSignals(game: string, view: View | null): void {
  const mine = view !== null && view.status === "playing" && actingSeat(view) !== null;
  const round = view?.round ?? 0;
  useEffect(() => {
    badgeFavicon(mine);
    if (mine) notifyTurn(game, round);
  }, [game, mine, round]);
  useEffect(() => () => badgeFavicon(false), []);
}

function titleFor(view: View): string {
  const acting = actingSeat(view);
  if (view.status === "over") return t("page.over");
  if (acting !== null) return t("page.yourTurn");
  return t("page.round", { round: view.round });
}
