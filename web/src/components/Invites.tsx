// The invitations of a game just made with invited seats: a link to copy for each, the seats
// kept on this device, and the way to the table.
import { t } from "../i18n";
import { absolute, gameUrl, linkTo } from "../route";
import type { Created } from "../types";
import { CopyButton } from "./CopyButton";
import { SeatMark } from "./SeatMark";

export function Invites({ created, onClose }: { created: Created; onClose: () => void }) {
  const mine = created.seats;
  return (
    <section class="panel invites" aria-labelledby="invites-title">
      <h2 id="invites-title" class="panel-title">
        {t("lobby.invitesTitle")}
      </h2>
      <p>{t("lobby.invitesLead")}</p>
      <ul class="invite-list">
        {created.invites.map((i) => (
          <li key={i.seat}>
            <SeatMark seat={i.seat} size={22} /> {t("lobby.seat", { seat: i.seat + 1 })}: <CopyButton text={absolute(i.link)} label={t("lobby.copyInvite", { seat: i.seat + 1 })} />
          </li>
        ))}
      </ul>
      {mine.length > 0 && (
        <p class="muted small">
          {t("lobby.ownSeats", { count: mine.length, seats: mine.map((s) => t("lobby.seat", { seat: s.seat + 1 })).join(", ") })}
        </p>
      )}
      <div class="row">
        <a class="btn btn-primary" href={gameUrl(created.game)} onClick={linkTo(gameUrl(created.game))} data-testid="go-to-table">
          {t("lobby.goToTable")}
        </a>
        <button type="button" class="btn btn-quiet" onClick={onClose}>
          {t("lobby.another")}
        </button>
      </div>
    </section>
  );
}
