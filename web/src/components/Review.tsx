// The post-game review beside the replay: a Review button, the progress while the server's
// bot workers search every move, then each player's win chance (or expected VP margin) as a
// chart (click a point to jump there), the move shown with its label, win chance and margin
// and the best move found, accuracy per player, the worst moves and every move with its label
// badge. Reviews stored before the margin existed show the rest.
import { useState } from "preact/hooks";
import "../review.css";
import { language, liveRecord, t } from "../i18n";
import { moveText } from "../moveWords";
import { SEAT_COLOURS } from "../seats";
import type { MoveReview, Review } from "../types";
import { hasMargins, marginSeries, marginWords, useReview, winSeries, type ReviewModel } from "../useReview";

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
  return <ReviewDone review={state.review} names={names} at={at} go={go} />;
}

type ChartKind = "win" | "margin";

function ReviewDone({ review, names, at, go }: { review: Review; names: string[]; at: number; go: (n: number) => void }) {
  const [kind, setKind] = useState<ChartKind>("win");
  const shown = hasMargins(review) ? kind : "win";
  return (
    <div class="review-done" data-testid="review-done">
      <div class="review-main">
        {hasMargins(review) && <ChartToggle kind={shown} setKind={setKind} />}
        <Chart review={review} kind={shown} names={names} at={at} go={go} />
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

function ChartToggle({ kind, setKind }: { kind: ChartKind; setKind: (k: ChartKind) => void }) {
  const choices: [ChartKind, string][] = [
    ["win", t("review.showWin")],
    ["margin", t("review.showMargin")],
  ];
  return (
    <div class="review-toggle" role="group" aria-label={t("review.show")} data-testid="review-toggle">
      {choices.map(([k, words]) => (
        <button key={k} type="button" class={`btn btn-small ${k === kind ? "btn-primary" : ""}`} aria-pressed={k === kind} onClick={() => setKind(k)} data-testid={`review-show-${k}`}>
          {words}
        </button>
      ))}
    </div>
  );
}

const W = 640;
const H = 170;
const PAD = 24;

/** The chart's values and scale: win chances 0-1, or margins symmetric around 0 in steps of 5 VP. */
interface Scale {
  series: (number | null)[][];
  low: number;
  high: number;
  labels: [string, string, string];
}

function scaleOf(review: Review, kind: ChartKind): Scale {
  if (kind === "win") return { series: winSeries(review), low: 0, high: 1, labels: ["100%", "50%", "0%"] };
  const series = marginSeries(review);
  const widest = Math.max(5, ...series.flat().map((v) => Math.abs(v ?? 0)));
  const top = Math.ceil(widest / 5) * 5;
  const vp = (v: number) => v.toLocaleString(language());
  return { series, low: -top, high: top, labels: [`+${vp(top)}`, "0", `−${vp(top)}`] };
}

function Chart({ review, kind, names, at, go }: { review: Review; kind: ChartKind; names: string[]; at: number; go: (n: number) => void }) {
  const { series, low, high, labels } = scaleOf(review, kind);
  const n = review.moves.length;
  const x = (k: number) => PAD + (k * (W - 2 * PAD)) / Math.max(1, n);
  const y = (v: number) => 8 + ((high - v) / (high - low)) * (H - 24);
  const step = (W - 2 * PAD) / Math.max(1, n);
  const middle = (low + high) / 2;
  return (
    <figure class="review-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t(kind === "win" ? "review.chart" : "review.marginChart")} data-testid="review-chart" data-kind={kind}>
        <line x1={PAD} x2={W - PAD} y1={y(middle)} y2={y(middle)} class="chart-half" />
        <text x={2} y={y(high) + 4} class="chart-axis">{labels[0]}</text>
        <text x={2} y={y(middle) + 4} class="chart-axis">{labels[1]}</text>
        <text x={2} y={y(low) + 4} class="chart-axis">{labels[2]}</text>
        <line x1={x(at)} x2={x(at)} y1={4} y2={H - 14} class="chart-now" />
        {series.map((values, p) => (
          <polyline key={p} fill="none" stroke={SEAT_COLOURS[p % 4]} stroke-width={2.5} stroke-dasharray={p % 2 ? "6 3" : undefined} points={points(values, x, y)} />
        ))}
        {review.moves.map((m, i) =>
          m.label === "good" ? null : <circle key={i} cx={x(i + 1)} cy={y(series[m.player]![i + 1] ?? middle)} r={m.label === "blunder" ? 5 : 4} class={`chart-mark mark-${m.label}`} />,
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
        <span class="muted">{t(kind === "win" ? "review.legend" : "review.marginLegend")}</span>
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
      {m.margin_before !== undefined && m.margin_after !== undefined && (
        <>
          {" · "}
          <span title={t("review.marginTitle")} data-testid="review-margin">
            {t("review.margin", { before: marginWords(m.margin_before), after: marginWords(m.margin_after) })}
          </span>
        </>
      )}
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
              <Badge label={m.label} /> {worstLine(m)}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function worstLine(m: MoveReview): string {
  const line = { move: played(m), best: bestPlay(m), before: pct(m.win_before), after: pct(m.win_after) };
  if (m.margin_before === undefined || m.margin_after === undefined) return t("review.worstLine", line);
  return t("review.worstLineMargin", { ...line, marginBefore: marginWords(m.margin_before), marginAfter: marginWords(m.margin_after) });
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
