// An invite link (/?game=ID&join=N): the game in a few words and the seat to take.
import { errorText, t } from "../i18n";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { linkTo, navigate } from "../route";
import { seatKindWords, seatName } from "../seats";
import { loadTokens, saveToken } from "../tokens";
import type { View } from "../types";
import { SeatMark } from "./SeatMark";
import { JoinButton } from "./WaitingRoom";

export function JoinPage({ game, seat }: { game: string; seat: number }) {
  const [view, setView] = useState<View | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Already holding this seat here: straight to the table.
    if (loadTokens(game)[seat]) {
      navigate(`/?game=${encodeURIComponent(game)}&seat=${seat}`, true);
      return;
    }
    api
      .view(game)
      .then(setView)
      .catch((e: unknown) => setError(e instanceof ApiError ? errorText(e.code, e.message) : t("join.notFound")));
  }, [game, seat]);
  const joined = (s: number, token: string) => {
    saveToken(game, s, token);
    navigate(`/?game=${encodeURIComponent(game)}&seat=${s}`, true);
  };
  const open = view?.seats[seat]?.open ?? false;
  return (
    <main class="page narrow" id="main">
      <h1>{t("join.title")}</h1>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {view && (
        <>
          <p class="lead">
            {t("join.lead", { mode: t(view.config.mode === "expert" ? "mode.expert" : "mode.classic"), players: view.config.players })}
          </p>
          <ul class="seat-list">
            {view.seats.map((s, i) => (
              <li key={i} class={i === seat ? "open" : ""}>
                <SeatMark seat={i} size={24} />
                <b>{seatName(s, i)}</b>
                <span class="muted"> — {seatKindWords(s)}</span>
              </li>
            ))}
          </ul>
          {open ? (
            <JoinButton game={game} seat={seat} onJoined={joined} />
          ) : (
            <p class="notice notice-info">
              {t("join.taken", { seat: seat + 1 })}{" "}
              <a href={`/?game=${game}`} onClick={linkTo(`/?game=${game}`)}>
                {t("join.watch")}
              </a>
            </p>
          )}
        </>
      )}
    </main>
  );
}
