// What the table tells around the board: whose turn it is, the standings, the game bar with
// its share links, and what just happened for screen readers.
import { ROUNDS } from "../game.gen";
import { t } from "../i18n";
import { useEffect, useRef, useState } from "preact/hooks";
import { useTicker } from "../hooks";
import { absolute, linkTo, replayUrl, seatLink } from "../route";
import { seatName } from "../seats";
import { TEXT } from "../text";
import type { ConnectionStatus } from "../socket";
import type { View } from "../types";
import { ConnectionBadge } from "./ConnectionBadge";
import { CopyButton } from "./CopyButton";
import { actionText } from "./Log";
import { ResignButton } from "./GameExit";
import { SeatMark } from "./SeatMark";

export function TurnBanner({ view, acting, toMoveName }: { view: View; acting: number | null; toMoveName: string }) {
  const seat = view.to_move;
  const info = seat !== null ? view.seats[seat] : undefined;
  const thinking = acting === null && view.status === "playing" && (info?.kind === "bot" || info?.bot_playing === true);
  const seconds = useThinkingSeconds(view.version, thinking);
  let text: string;
  if (acting !== null) text = view.phase === "take" ? t("table.yourTake") : t("table.yourBuild");
  else if (thinking) text = seconds >= 1 ? TEXT.thinkingFor(toMoveName, seconds) : TEXT.thinking(toMoveName);
  else text = t("table.waitingFor", { name: toMoveName });
  return (
    <div class={`turn-banner${acting !== null ? " mine" : ""}`} data-testid="turn-banner">
      {seat !== null && <SeatMark seat={seat} size={24} />}
      <span>{text}</span>
      {acting === null && (info?.kind === "bot" || info?.bot_playing) && <span class="dots" aria-hidden="true" />}
    </div>
  );
}

/** Whole seconds since the position `version` came while `on` (a bot thinking about it). */
function useThinkingSeconds(version: number, on: boolean): number {
  const since = useRef({ version, at: Date.now() });
  if (since.current.version !== version) since.current = { version, at: Date.now() };
  useTicker(1000, on);
  return on ? Math.floor((Date.now() - since.current.at) / 1000) : 0;
}

export function Standings({ view }: { view: View }) {
  const mode = view.config.mode;
  const pool = Array.isArray(view.state.architects) ? null : view.state.architects;
  return (
    <section class="panel standings" aria-label={t("table.game")}>
      <h2 class="panel-title">
        {t(mode === "expert" ? "mode.expert" : "mode.classic")} · {t("table.round", { round: view.round, rounds: ROUNDS[mode], turn: view.turn })}
      </h2>
      <ul class="standings-list">
        {view.seats.map((s, i) => (
          <li key={i} class={view.to_move === i ? "to-move" : ""}>
            <SeatMark seat={i} size={18} />
            <span class="st-name">{seatName(s, i)}</span>
            <span class="st-score">{t("table.vp", { score: view.scores[i]?.total ?? 0 })}</span>
          </li>
        ))}
      </ul>
      {pool && (
        <p class="pool" aria-label={t("table.poolArchitects")}>
          {t("table.pool")}{" "}
          {[1, 2, 3, 4, 5].map((n) => (
            <span key={n} class={`pool-chip${(pool[String(n)] ?? 0) === 0 ? " empty" : ""}`}>
              #{n}×{pool[String(n)] ?? 0}
            </span>
          ))}
        </p>
      )}
      {(view.config.variants.urbanist_blocks === "square" || view.config.variants.all_parks_absorb) && (
        <p class="muted small">
          {t("table.variants", { variants: variantWords(view) })}
        </p>
      )}
    </section>
  );
}

/** The game's variants in the players' words, joined ("" when it has none). */
function variantWords(view: View): string {
  const v = view.config.variants;
  const words = [v.urbanist_blocks === "square" ? t("table.variantSquare") : "", v.all_parks_absorb ? t("table.variantParks") : ""];
  return words.filter(Boolean).join("; ");
}

/** Tells screen readers what changed: your turn, or what the others just did. */
export function Announcer({ view, acting }: { view: View; acting: number | null }) {
  const [text, setText] = useState("");
  const prev = useRef<number>(view.version);
  useEffect(() => {
    if (view.version === prev.current) return;
    prev.current = view.version;
    const a = view.last_actions[view.last_actions.length - 1];
    const did = a ? `${seatName(view.seats[a.seat], a.seat)}: ${actionText(a)}. ` : "";
    setText(did + (acting !== null ? t("table.yourTurnSaid") : ""));
  }, [view.version, view.last_actions, view.seats, acting]);
  return (
    <div class="sr-only" aria-live="polite" role="status">
      {text}
    </div>
  );
}

export function GameBar({ view, status, tokens }: { view: View; status: ConnectionStatus; tokens: Record<number, string> }) {
  const game = view.game ?? "";
  const you = view.you ?? [];
  const links = you.map((s) => ({ seat: s, link: tokens[s] ? absolute(seatLink(game, s, tokens[s])) : null }));
  return (
    <div class="game-bar">
      <span class="game-id">
        {t("table.game")} <code>{game}</code>
      </span>
      <span class="game-seat">
        {you.length === 0
          ? t("table.watchingShort")
          : you.length === 1
            ? t("table.playingAs", { name: seatName(view.seats[you[0]!], you[0]!) })
            : t("table.hotseatSeats", { names: you.map((s) => seatName(view.seats[s], s)).join(", ") })}
      </span>
      <details class="menu">
        <summary class="btn btn-small btn-quiet">{t("table.share")}</summary>
        <div class="menu-body">
          <p>
            {t("table.watchLink")} <CopyButton text={absolute(`/?game=${game}`)} label={t("table.copyWatch")} />
          </p>
          {links.map(
            (l) =>
              l.link && (
                <p key={l.seat}>
                  {t("table.privateFor", { name: seatName(view.seats[l.seat], l.seat) })}{" "}
                  <CopyButton text={l.link} label={t("table.copyPrivate")} />
                </p>
              ),
          )}
          {view.status === "over" && (
            <p>
              <a href={replayUrl(game)} onClick={linkTo(replayUrl(game))}>
                {t("end.replay")}
              </a>
            </p>
          )}
        </div>
      </details>
      <ResignButton view={view} tokens={tokens} />
      <ConnectionBadge status={status} />
    </div>
  );
}
