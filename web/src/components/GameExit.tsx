// Ways out of a game: Leave or Cancel a game still waiting for players, Resign a running one
// (after a confirmation), and the page of a game that ended without a result (cancelled,
// expired, abandoned). The server decides who may do what; its refusals are shown as they are.
import { errorText, liveRecord, t } from "../i18n";
import { useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { linkTo, navigate } from "../route";
import { seatName } from "../seats";
import { forgetSeat } from "../tokens";
import type { View } from "../types";

/** The statuses of a game that ended without a result, in players' words. */
const ENDED_WORDS: Readonly<Record<string, string>> = liveRecord(["cancelled", "expired", "abandoned"], "ended.");

export function endedWithoutResult(view: View): boolean {
  return view.status in ENDED_WORDS;
}

/** The page of a game that ended without a result. */
export function GameEnded({ view }: { view: View }) {
  return (
    <main class="page narrow" id="main" data-status={view.status}>
      <h1>{t("ended.title")}</h1>
      <p class="lead">{ENDED_WORDS[view.status] ?? t("ended.other")}</p>
      <p>
        <a class="btn btn-primary" href="/" onClick={linkTo("/")}>
          {t("exit.back")}
        </a>
      </p>
    </main>
  );
}

function useAction(): [string | null, boolean, (run: () => Promise<void>) => void] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = (run: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    run()
      .catch((e: unknown) => setError(e instanceof ApiError ? errorText(e.code, e.message) : e instanceof Error ? e.message : t("exit.noAnswer")))
      .finally(() => setBusy(false));
  };
  return [error, busy, act];
}

/** Leave (each seat held) and, for the creator's seat, Cancel: in the waiting room. */
export function WaitingExit({ view, tokens }: { view: View; tokens: Record<number, string> }) {
  const game = view.game ?? "";
  const held = (view.you ?? []).filter((s) => tokens[s]);
  const host = held.find((s) => view.seats[s]?.host);
  const [error, busy, act] = useAction();
  if (held.length === 0) return null;
  const leave = () =>
    act(async () => {
      for (const s of held) {
        await api.leave(game, s, tokens[s]!);
        forgetSeat(game, s);
      }
      navigate("/");
    });
  const cancel = () =>
    act(async () => {
      await api.cancel(game, tokens[host!]!);
      navigate("/");
    });
  return (
    <div class="game-exit">
      {host !== undefined ? (
        <button class="btn" disabled={busy} onClick={cancel}>
          {t("exit.cancel")}
        </button>
      ) : (
        <button class="btn" disabled={busy} onClick={leave}>
          {t("exit.leave")}
        </button>
      )}
      <span class="muted small">
        {host !== undefined ? t("exit.cancelWhy") : t("exit.leaveWhy")}
      </span>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Whether resigning `held` ends the game at once (the server's rule): a game of two, or
 * one where no other person holds a seat. */
export function resignEnds(view: View, held: number[]): boolean {
  const others = view.seats.filter((s) => s.kind === "human" && !s.open && !held.includes(s.seat));
  return view.seats.length === 2 || others.length === 0;
}

/** Resign, with a confirmation that says what follows: for the players of a running game (in the game bar). */
export function ResignButton({ view, tokens }: { view: View; tokens: Record<number, string> }) {
  const game = view.game ?? "";
  const held = (view.you ?? []).filter((s) => tokens[s]);
  const [asking, setAsking] = useState(false);
  const [error, busy, act] = useAction();
  if (view.status !== "playing" || held.length === 0) return null;
  const names = held.map((s) => seatName(view.seats[s], s)).join(", ");
  const resign = () =>
    act(async () => {
      for (const s of held) {
        const after = await api.resign(game, s, tokens[s]!);
        if (after.status !== "playing") break; // the game ended: the other seats have nothing to resign
      }
      setAsking(false);
    });
  if (!asking) {
    return (
      <button class="btn btn-small btn-quiet" onClick={() => setAsking(true)}>
        {t("exit.resign")}
      </button>
    );
  }
  return (
    <div class="resign-confirm" role="alertdialog" aria-label={t("exit.resignAsk")}>
      <span>
        {t(resignEnds(view, held) ? "exit.resignEnds" : "exit.resignText", { count: held.length, names })}
      </span>
      <button class="btn btn-small btn-primary" disabled={busy} onClick={resign}>
        {t("exit.yesResign")}
      </button>
      <button class="btn btn-small" disabled={busy} onClick={() => setAsking(false)}>
        {t("exit.keepPlaying")}
      </button>
      {error && (
        <span class="notice notice-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
