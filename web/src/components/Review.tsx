// The post-game review beside the replay: a Review button, the progress while the server's
// bot workers search every move, then each player's win chance as a chart (click a point to
// jump there), the move shown with its label and the best move found, accuracy per player,
// the worst moves and every move with its label badge.
import "../review.css";
import { liveRecord, t } from "../i18n";
import { moveText } from "../moveWords";
import { SEAT_COLOURS } from "../seats";
import type { MoveReview, Review } from "../types";
import { useReview, winSeries, type ReviewModel } from "../useReview";

/** Each label in the current language (keys review.label.*). */
export const LABEL_WORDS: Readonly<Record<MoveReview["label"], string>> = liveRecord(["good", "inaccuracy", "mistake", "blunder"], "review.label.");
const LABEL_MARKS: Readonly<Record<MoveReview["label"], string>> = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };

interface ReviewProps {
  game: string | null;
  recordText: string;
  names: string[];
  at: number;
  go: (n: number) => void;
}

/** Mounted by the replay viewer; `?review=1` in the address starts the review at once. */
export function ReviewPanel({ game, recordText, names, at, go }: ReviewProps) {
  const autoStart = new URLSearchParams(window.location.search).get("review") === "1";
  const model = useReview(game, game === null ? recordText : null, autoStart);
  return (
    <section class="panel review-panel" aria-label={t("review.panel")} data-testid="review-panel">
      <ReviewBody model={model} names={names} at={at} go={go} />
    </section>
  );
}

function ReviewBody({ model, names, at, go }: { model: ReviewModel; names: string[]; at: number; go: (n: number) => void }) {
  const { state } = model;
  if (state.status === "idle" || state.status === "error") {
    return (
      <div class="review-start">
        <button type="button" class="btn btn-primary" onClick={model.start} data-testid="review-start">
          {t("review.start")}
        </button>
        <span class="muted">{t("review.lead")}</span>
        {state.status === "error" && (
          <p class="notice notice-error" role="alert">
            {state.message}
          </p>
        )}
      </div>
    );
  }
  if (state.status === "unavailable") return <p class="muted">{state.message}</p>;
  if (state.status === "running") {
    return (
      <div class="review-progress" role="status" data-testid="review-progress">
        <span>{t("review.running", { done: state.done, total: state.total })}</span>
        <progress max={state.total} value={state.done} aria-label={t("review.progress")} />
      </div>
    );
  }
  const { review } = state;
  return (
    <div class="review-done" data-testid="review-done">
      <div class="review-main">
        <WinChart review={review} names={names} at={at} go={go} />
        <CurrentMove review={review} names={names} at={at} />
      </div>
      <div class="review-side">
        <Accuracy review={review} names={names} />
        <WorstMoves review={review} names={names} go={go} />
      </div>
      <MoveBadges review={review} names={names} at={at} go={go} />
    </div>
  );
}

const W = 640;
const H = 170;
const PAD = 24;

function WinChart({ review, names, at, go }: { review: Review; names: string[]; at: number; go: (n: number) => void }) {
  const series = winSeries(review);
  const n = review.moves.length;
  const x = (k: number) => PAD + (k * (W - 2 * PAD)) / Math.max(1, n);
  const y = (v: number) => 8 + (1 - v) * (H - 24);
  const step = (W - 2 * PAD) / Math.max(1, n);
  return (
    <figure class="review-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t("review.chart")} data-testid="review-chart">
        <line x1={PAD} x2={W - PAD} y1={y(0.5)} y2={y(0.5)} class="chart-half" />
        <text x={2} y={y(1) + 4} class="chart-axis">100%</text>
        <text x={2} y={y(0.5) + 4} class="chart-axis">50%</text>
        <text x={2} y={y(0) + 4} class="chart-axis">0%</text>
        <line x1={x(at)} x2={x(at)} y1={4} y2={H - 14} class="chart-now" />
        {series.map((values, p) => (
          <polyline key={p} fill="none" stroke={SEAT_COLOURS[p % 4]} stroke-width={2.5} stroke-dasharray={p % 2 ? "6 3" : undefined} points={points(values, x, y)} />
        ))}
        {review.moves.map((m, i) =>
          m.label === "good" ? null : <circle key={i} cx={x(i + 1)} cy={y(series[m.player]![i + 1] ?? 0.5)} r={m.label === "blunder" ? 5 : 4} class={`chart-mark mark-${m.label}`} />,
        )}
        {Array.from({ length: n + 1 }, (_, k) => (
          <rect key={k} x={x(k) - step / 2} y={0} width={step} height={H} class="chart-hit" onClick={() => go(k)} data-testid={`review-point-${k}`}>
            <title>{k === 0 ? t("review.startOfGame") : t("review.point", { n: k, name: names[review.moves[k - 1]!.player] ?? "", label: LABEL_WORDS[review.moves[k - 1]!.label] })}</title>
          </rect>
        ))}
      </svg>
      <figcaption class="chart-legend">
        {names.map((name, p) => (
          <span key={p}>
            <span class="legend-line" style={{ background: SEAT_COLOURS[p % 4] }} /> {name}
          </span>
        ))}
        <span class="muted">{t("review.legend")}</span>
      </figcaption>
    </figure>
  );
}

function points(values: (number | null)[], x: (k: number) => number, y: (v: number) => number): string {
  return values
    .map((v, k) => (v === null ? null : `${x(k).toFixed(1)},${y(v).toFixed(1)}`))
    .filter((s) => s !== null)
    .join(" ");
}

function Badge({ label }: { label: MoveReview["label"] }) {
  return (
    <span class={`review-badge badge-${label}`} title={LABEL_WORDS[label]}>
      <span aria-hidden="true">{LABEL_MARKS[label]}</span> {LABEL_WORDS[label]}
    </span>
  );
}

const pct = (v: number) => `${Math.round(v * 100)}%`;
/** What the move played and the best move did, in the current language, with their notation
 * in brackets as the review's English text has it (the server's text already ends with it). */
const played = (m: MoveReview): string => (m.facts ? `${moveText(m.facts, m.text)} (${m.move})` : m.text);
const bestPlay = (m: MoveReview): string => (m.best_facts ? `${moveText(m.best_facts, m.best_text)} (${m.best})` : m.best_text);

function CurrentMove({ review, names, at }: { review: Review; names: string[]; at: number }) {
  const m = at > 0 ? review.moves[at - 1] : undefined;
  if (!m) return <p class="review-current muted" data-testid="review-current">{t("review.pick")}</p>;
  return (
    <p class="review-current" data-testid="review-current">
      <strong>{t("review.moveOf", { n: at, name: names[m.player] ?? "" })}</strong> {played(m)} <Badge label={m.label} />{" "}
      {t("review.winChance", { before: pct(m.win_before), after: pct(m.win_after) })}
      {m.move === m.best ? t("review.bestFound") : t("review.bestWas", { move: bestPlay(m) })}
      {m.forced && t("review.forced")}
    </p>
  );
}

function Accuracy({ review, names }: { review: Review; names: string[] }) {
  return (
    <table class="review-accuracy" data-testid="review-accuracy">
      <caption>{t("review.accuracy")}</caption>
      <tbody>
        {review.players_summary.map((s) => (
          <tr key={s.player}>
            <th scope="row">{names[s.player]}</th>
            <td class="accuracy-value">{s.accuracy.toFixed(1)}%</td>
            <td class="muted small">
              {t("review.inaccuracies", { count: s.counts.inaccuracy ?? 0 })} · {t("review.mistakes", { count: s.counts.mistake ?? 0 })} ·{" "}
              {t("review.blunders", { count: s.counts.blunder ?? 0 })}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WorstMoves({ review, names, go }: { review: Review; names: string[]; go: (n: number) => void }) {
  if (review.worst.length === 0) return <p class="muted">{t("review.noInaccuracy")}</p>;
  return (
    <div class="review-worst">
      <h3>{t("review.worst")}</h3>
      <ol data-testid="review-worst">
        {review.worst.map((i) => {
          const m = review.moves[i]!;
          return (
            <li key={i}>
              <button type="button" class="review-link" onClick={() => go(i + 1)}>
                {t("review.moveLink", { n: i + 1, name: names[m.player] ?? "" })}
              </button>{" "}
              <Badge label={m.label} /> {t("review.worstLine", { move: played(m), best: bestPlay(m), before: pct(m.win_before), after: pct(m.win_after) })}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function MoveBadges({ review, names, at, go }: { review: Review; names: string[]; at: number; go: (n: number) => void }) {
  return (
    <details class="review-moves">
      <summary>{t("review.every")}</summary>
      <ol>
        {review.moves.map((m, i) => (
          <li key={i} class={at === i + 1 ? "on" : ""}>
            <button type="button" class="review-link" onClick={() => go(i + 1)}>
              {i + 1}. {names[m.player]}: {played(m)}
            </button>{" "}
            <Badge label={m.label} />
          </li>
        ))}
      </ol>
    </details>
  );
}
