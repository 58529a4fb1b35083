// The hint / analysis panel: what the `hard` bot would play here and why — its top
// candidate moves with their win chance and expected final score. The same candidates are
// drawn on the board as numbered badges.
import type { AnalysisState } from "../hint";
import { seatName } from "../seats";
import type { AnalysisReply, Candidate, View } from "../types";
import { LightbulbIcon } from "./Icons";

/** The engine's words, with its snake_case type names spelled out and arrows drawn. */
export function words(text: string): string {
  return text.replace(/_/g, " ").replace(/ -> /g, " → ");
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

export function why(reply: AnalysisReply): string {
  const [a, b] = reply.candidates;
  if (!a) return "";
  const total = reply.candidates.reduce((n, c) => n + c.visits, 0);
  let text = `Out of ${total} simulated games from here, the ${reply.bot} bot explored “${words(a.text)}” most (${a.visits} games): it won ${pct(a.win_chance)} of them, scoring ${a.expected_score.toFixed(1)} VP on average.`;
  if (b) {
    const dw = a.win_chance - b.win_chance;
    const ds = a.expected_score - b.expected_score;
    text += ` The next best, “${words(b.text)}”, `;
    text +=
      Math.abs(dw) < 0.02 && Math.abs(ds) < 0.5
        ? "is about as good."
        : `wins ${dw >= 0 ? "less" : "more"} often (${pct(b.win_chance)}) and scores ${ds >= 0 ? `${ds.toFixed(1)} VP less` : `${(-ds).toFixed(1)} VP more`}.`;
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
    <section class="panel analysis" aria-label="Hint: what the hard bot would play" aria-live="polite" aria-busy={state.status === "loading"}>
      <header class="panel-head">
        <h2 class="panel-title">
          <LightbulbIcon class="inline-icon" /> Hint
        </h2>
        <button type="button" class="btn btn-quiet btn-small" onClick={onClose}>
          Close<span class="sr-only"> the hint</span>
        </button>
      </header>
      {state.status === "loading" && (
        <p class="thinking">
          <span class="spinner" aria-hidden="true" /> The hard bot is thinking about this position…
        </p>
      )}
      {state.status === "error" && (
        <p class="notice notice-error" role="alert">
          {state.message}{" "}
          {onRetry && (
            <button type="button" class="btn btn-small" onClick={onRetry}>
              Try again
            </button>
          )}
        </p>
      )}
      {state.status === "ready" && (
        <>
          <p class="analysis-for">
            For <b>{seatName(view.seats[state.reply.seat], state.reply.seat)}</b>, after move {state.reply.at}:
          </p>
          <ol class="candidates">
            {state.reply.candidates.map((c, i) => (
              <CandidateRow key={c.move} candidate={c} rank={i + 1} best={c.move === state.reply.best} onPlay={onPlay} />
            ))}
          </ol>
          <p class="why">{why(state.reply)}</p>
        </>
      )}
    </section>
  );
}

/** One candidate move: its rank badge, its words, its win chance and expected score. */
function CandidateRow({ candidate: c, rank, best, onPlay }: { candidate: Candidate; rank: number; best: boolean; onPlay?: (move: string) => void }) {
  return (
    <li class={best ? "best" : ""} data-move={c.move}>
      <span class={`hint-badge${best ? " hint-best" : ""}`} aria-hidden="true">
        {rank}
      </span>
      <div class="cand-body">
        <div class="cand-text">
          {best && <span class="best-tag">hard plays </span>}
          {words(c.text)}
        </div>
        <div class="cand-stats">
          <span class="bar" aria-hidden="true">
            <span class="bar-fill" style={{ width: pct(c.win_chance) }} />
          </span>
          <span>
            <b>{pct(c.win_chance)}</b> win
          </span>
          <span>
            <b>{c.expected_score.toFixed(1)}</b> VP
          </span>
          <span class="muted" title="simulated games through this move">
            {c.visits}×
          </span>
        </div>
      </div>
      {onPlay && (
        <button type="button" class="btn btn-small" onClick={() => onPlay(c.move)}>
          Play<span class="sr-only"> {c.move}</span>
        </button>
      )}
    </li>
  );
}
