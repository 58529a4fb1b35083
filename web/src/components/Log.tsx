import { t } from "../i18n";
import { seatName } from "../seats";
import type { LastAction, Seat } from "../types";
import { words } from "./Analysis";
import { SeatMark } from "./SeatMark";

const BY: Record<string, string> = { bot: "bot", takeover: "bot standing in", clock: "bot, time ran out" };

/** The last actions, newest first, in words. */
export function ActionLog({ actions, seats, title = t("log.title") }: { actions: LastAction[]; seats: Seat[]; title?: string }) {
  const list = [...actions].reverse();
  return (
    <section class="panel log" aria-label={title}>
      <h2 class="panel-title">{title}</h2>
      {list.length === 0 ? (
        <p class="muted">{t("log.none")}</p>
      ) : (
        // A scrollable list: focusable so that keyboard users can scroll it.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <ol class="log-list" reversed tabIndex={0} aria-label={t("log.newestFirst", { title })}>
          {list.map((a) => (
            <li key={a.version} class={`${a.undone ? "undone" : ""} log-${a.kind}`}>
              <SeatMark seat={a.seat} size={16} />
              <span class="log-text">
                <b>{seatName(seats[a.seat], a.seat)}</b>{" "}
                {a.kind === "undo" ? words(a.text) || "takes back their last action" : words(a.text) || a.move}
                {BY[a.by] && <span class="log-by"> ({BY[a.by]})</span>}
                {a.undone && <span class="log-by"> — taken back</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
