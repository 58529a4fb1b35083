// The table's clock: the time left for the move being played, counted down from
// the server's deadline (the server decides when time is up: then the bot plays the move),
// and the your-turn notifications toggle for a player holding a seat.
import { useState } from "preact/hooks";
import { useTicker } from "../hooks";
import { t } from "../i18n";
import { seatName } from "../seats";
import { notificationsSupported, notifyWanted, setNotify } from "../turn";
import type { View } from "../types";

/** Seconds as the clock shows them: "2 d 04 h" over a day, "3:04:05" over an hour, else "4:05". */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  const [d, h, m, sec] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  if (d > 0) return `${d} d ${pad(h)} h`;
  if (h > 0) return `${h}:${pad(m)}:${pad(sec)}`;
  return `${m}:${pad(sec)}`;
}

/** "2 days", "5 minutes": a time per move in words. */
export function perMoveWords(seconds: number): string {
  return seconds >= 86400 ? t("clock.days", { count: Math.round(seconds / 86400) }) : t("lobby.minutes", { count: Math.round(seconds / 60) });
}

export function ClockBar({ view, you }: { view: View; you: number[] }) {
  const clock = view.clock ?? null;
  const running = clock !== null && clock.deadline !== null && view.to_move !== null;
  useTicker(1000, running);
  // Notifications matter when someone else moves between your turns: not at a hotseat or
  // bots-only table without a clock (which keeps its layout).
  const others = view.seats.some((s, i) => s.kind === "human" && !you.includes(i));
  const notify = you.length > 0 && (clock !== null || others) && notificationsSupported();
  if (clock === null && !notify) return null;
  return (
    <div class="clock-bar">
      {clock !== null && (
        <span class="muted small" data-testid="clock-per-move">
          {t("clock.perMove", { time: perMoveWords(clock.move_seconds) })}
        </span>
      )}
      {running && <Countdown view={view} deadline={clock.deadline!} mine={you.includes(view.to_move!)} />}
      {notify && <NotifyToggle />}
    </div>
  );
}

function Countdown({ view, deadline, mine }: { view: View; deadline: number; mine: boolean }) {
  const left = deadline - Date.now() / 1000;
  const name = seatName(view.seats[view.to_move!], view.to_move!);
  const low = left < Math.min(60, (view.clock?.move_seconds ?? 0) / 5);
  return (
    <span class={`clock${mine ? " clock-mine" : ""}${low ? " clock-low" : ""}`} role="timer" aria-live="off" data-testid="clock">
      {left > 0 ? t("clock.left", { name, time: clockText(left) }) : t("clock.out", { name })}
    </span>
  );
}

function NotifyToggle() {
  const [on, setOn] = useState(notifyWanted);
  const [blocked, setBlocked] = useState(false);
  const toggle = async (want: boolean) => {
    const state = await setNotify(want);
    setOn(state === "on");
    setBlocked(state === "blocked");
  };
  return (
    <label class="notify-toggle small">
      <input type="checkbox" checked={on} onChange={(e) => void toggle((e.target as HTMLInputElement).checked)} />{" "}
      {t("signals.notify")}
      {blocked && <span class="muted"> — {t("signals.blocked")}</span>}
    </label>
  );
}
