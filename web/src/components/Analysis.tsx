// The hint / analysis panel: what the `hard` bot would play here and why — its top
// candidate moves with their win chance and expected final score. The same candidates are
// drawn on the board as numbered badges.
import type { AnalysisState } from "../hint";
import { t, tOptional } from "../i18n";
import { moveText } from "../moveWords";
import { seatName } from "../seats";
import type { AnalysisReply, Candidate, View } from "../types";
import { LightbulbIcon } from "./Icons";

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** A candidate move in the current language, the tile as the site shows it. */
export const candidateText = (c: Candidate): string => moveText(c.facts, c.text);

/** A bot level in the current language ("hard" → "difficile"). */
const levelWord = (level: string): string => tOptional(`level.${level}`) ?? level;

export function why(reply: AnalysisReply): string {
  const [a, b] = reply.candidates;
  if (!a) return "";
  const total = reply.candidates.reduce((n, c) => n + c.visits, 0);
  const best = { total, bot: levelWord(reply.bot), move: candidateText(a), visits: a.visits, percent: pct(a.win_chance), score: a.expected_score.toFixed(1) };
  let text = t("hint.why", best);
  if (b) {
    const same = Math.abs(a.win_chance - b.win_chance) < 0.02 && Math.abs(a.expected_score - b.expected_score) < 0.5;
    const next = { move: candidateText(b), percent: pct(b.win_chance), score: b.expected_score.toFixed(1) };
    text += " " + (same ? t("hint.nextSame", { move: next.move }) : t("hint.next", next));
  }
  return text;
}

export function AnalysisPanel({
  state,
  view,
  onPlay,
  onClose,
  onRetry,
}: {
  state: AnalysisState;
  view: View;
  onPlay?: (move: string) => void;
  onClose: () => void;
  onRetry?: () => void;
}) {
  if (state.status === "idle" || state.status === "unavailable") return null;
  return (
    <section class="panel analysis" aria-label={t("hint.label")} aria-live="polite" aria-busy={state.status === "loading"}>
      <header class="panel-head">
        <h2 class="panel-title">
          <LightbulbIcon class="inline-icon" /> {t("hint.title")}
        </h2>
        <button type="button" class="btn btn-quiet btn-small" onClick={onClose}>
          {t("hint.close")}
          <span class="sr-only"> {t("hint.closeWhat")}</span>
        </button>
      </header>
      {state.status === "loading" && (
        <p class="thinking">
          <span class="spinner" aria-hidden="true" /> {t("hint.thinking")}
        </p>
      )}
      {state.status === "error" && (
        <p class="notice notice-error" role="alert">
          {state.message}{" "}
          {onRetry && (
            <button type="button" class="btn btn-small" onClick={onRetry}>
              {t("hint.retry")}
            </button>
          )}
        </p>
      )}
      {state.status === "ready" && (
        <>
          <p class="analysis-for">{t("hint.for", { name: seatName(view.seats[state.reply.seat], state.reply.seat), at: state.reply.at })}</p>
          <ol class="candidates">
            {state.reply.candidates.map((c, i) => (
              <CandidateRow key={c.move} candidate={c} rank={i + 1} best={c.move === state.reply.best} bot={state.reply.bot} onPlay={onPlay} />
            ))}
          </ol>
          <p class="why">{why(state.reply)}</p>
        </>
      )}
    </section>
  );
}

/** One candidate move: its rank badge, its words, its win chance and expected score. */
function CandidateRow({ candidate: c, rank, best, bot, onPlay }: { candidate: Candidate; rank: number; best: boolean; bot: string; onPlay?: (move: string) => void }) {
  return (
    <li class={best ? "best" : ""} data-move={c.move}>
      <span class={`hint-badge${best ? " hint-best" : ""}`} aria-hidden="true">
        {rank}
      </span>
      <div class="cand-body">
        <div class="cand-text">
          {best && <span class="best-tag">{t("hint.best", { bot: levelWord(bot) })} </span>}
          {candidateText(c)}
        </div>
        <div class="cand-stats">
          <span class="bar" aria-hidden="true">
            <span class="bar-fill" style={{ width: pct(c.win_chance) }} />
          </span>
          <span>{t("hint.win", { percent: pct(c.win_chance) })}</span>
          <span>{t("hint.vp", { score: c.expected_score.toFixed(1) })}</span>
          <span class="muted" title={t("hint.visits")}>
            {c.visits}×
          </span>
        </div>
      </div>
      {onPlay && (
        <button type="button" class="btn btn-small" onClick={() => onPlay(c.move)}>
          {t("hint.play")}
          <span class="sr-only"> {candidateText(c)}</span>
        </button>
      )}
    </li>
  );
}
