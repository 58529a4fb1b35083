// A game still waiting for players: who is seated, the invite link of every open seat, and
// a seat to take for a visitor.
import { errorText, t } from "../i18n";
import { useState } from "preact/hooks";
import { api, ApiError } from "../api";
import type { ConnectionStatus } from "../socket";
import { absolute, seatLink } from "../route";
import { seatKindWords, seatName } from "../seats";
import { playerName, savePlayerName } from "../tokens";
import type { View } from "../types";
import { ConnectionBadge } from "./ConnectionBadge";
import { CopyButton } from "./CopyButton";
import { WaitingExit } from "./GameExit";
import { SeatMark } from "./SeatMark";

export function WaitingRoom({
  view,
  tokens,
  status,
  onJoined,
}: {
  view: View;
  tokens: Record<number, string>;
  status: ConnectionStatus;
  onJoined: (seat: number, token: string) => void;
}) {
  const game = view.game ?? "";
  const open = view.seats.filter((s) => s.open);
  const you = view.you ?? [];
  return (
    <main class="page narrow waiting" id="main" data-status="waiting" data-version={view.version}>
      <h1>{t("wait.title")}</h1>
      <p class="lead">
        {t("wait.lead", { mode: t(view.config.mode === "expert" ? "mode.expert" : "mode.classic"), players: view.config.players, count: open.length })}
      </p>
      <ConnectionBadge status={status} />
      <ul class="seat-list">
        {view.seats.map((s, i) => (
          <li key={i} class={s.open ? "open" : ""}>
            <SeatMark seat={i} size={26} />
            <div class="seat-who">
              <b>{seatName(s, i)}</b>
              {you.includes(i) && <span class="you-tag">{t("table.you")}</span>}
              <span class="muted"> — {seatKindWords(s)}</span>
            </div>
            {s.open && (
              <div class="seat-invite">
                <span class="muted small">{t("wait.invite")}</span>
                <CopyButton text={absolute(`/?game=${game}&join=${i}`)} label={t("lobby.copyInvite", { seat: i + 1 })} />
                {you.length === 0 && <JoinButton game={game} seat={i} onJoined={onJoined} />}
              </div>
            )}
          </li>
        ))}
      </ul>
      {you.map((s) =>
        tokens[s] ? (
          <p key={s} class="private-link">
            {t("wait.private")} <CopyButton text={absolute(seatLink(game, s, tokens[s]))} label={t("wait.copyPrivate")} />
          </p>
        ) : null,
      )}
      <WaitingExit view={view} tokens={tokens} />
    </main>
  );
}

export function JoinButton({ game, seat, onJoined }: { game: string; seat: number; onJoined: (seat: number, token: string) => void }) {
  const [name, setName] = useState(playerName());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const join = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const clean = name.trim() || t("lobby.defaultName");
      savePlayerName(clean);
      const pass = await api.join(game, seat, clean);
      onJoined(pass.seat, pass.token);
    } catch (err) {
      setError(err instanceof ApiError ? errorText(err.code, err.message) : t("wait.joinFailed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="join-form" onSubmit={(e) => void join(e)}>
      <label>
        {t("lobby.yourName")}
        <input value={name} maxLength={40} required onInput={(e) => setName((e.target as HTMLInputElement).value)} autoComplete="nickname" />
      </label>
      <button class="btn btn-primary" disabled={busy}>
        {t("wait.take", { seat: seat + 1 })}
      </button>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
