import { t } from "../i18n";
import { moveText } from "../moveWords";
import { seatName } from "../seats";
import type { LastAction, Seat } from "../types";
import { SeatMark } from "./SeatMark";

/** Who acted for the seat, when not its player. */
function byWhom(by: LastAction["by"]): string | null {
  if (by === "bot") return t("log.byBot");
  if (by === "takeover") return t("log.byTakeover");
  if (by === "clock") return t("log.byClock");
  return null;
}

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
                {actionText(a)}
                {byWhom(a.by) && <span class="log-by"> ({byWhom(a.by)})</span>}
                {a.undone && <span class="log-by"> — {t("log.undone")}</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** What an action did in the current language (the server's sentence for older entries). */
export function actionText(a: LastAction): string {
  if (a.facts) return moveText(a.facts, a.text);
  if (a.kind === "undo") return moveText({ kind: "undo", count: 1 }, "");
  return moveText(null, a.text) || (a.move ?? "");
}
