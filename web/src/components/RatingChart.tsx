// The rating history of one mode as a small SVG chart (no chart library): the shown rating
// (μ − 3σ) after each rated game as a line with dots, over the band μ ± σ (a bar at each game),
// so the uncertainty narrowing game after game is visible. The figure is labelled for screen readers, and each
// dot carries its figures as a tooltip.
import { t } from "../i18n";
import { number1, type HistoryEntry } from "../ratings";

const W = 320;
const H = 120;
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };

/** The y-scale's bounds: every point's band and rating, widened to whole numbers. */
function bounds(points: HistoryEntry[]): [number, number] {
  const lows = points.flatMap((p) => [p.rating, p.mu - p.sigma]);
  const highs = points.map((p) => p.mu + p.sigma);
  const lo = Math.floor(Math.min(0, ...lows));
  const hi = Math.ceil(Math.max(lo + 1, ...highs));
  return [lo, hi];
}

export function RatingChart({ points, label }: { points: HistoryEntry[]; label: string }) {
  if (points.length === 0) return null;
  const [lo, hi] = bounds(points);
  const x = (i: number) => PAD.left + (points.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v: number) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const band = [...points.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`), ...points.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse()].join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ");
  return (
    <figure class="rating-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-testid="rating-chart">
        <line class="chart-axis" x1={PAD.left} y1={y(0)} x2={W - PAD.right} y2={y(0)} />
        <text class="chart-tick" x={PAD.left - 4} y={y(hi) + 4} text-anchor="end">
          {hi}
        </text>
        <text class="chart-tick" x={PAD.left - 4} y={y(lo) + 4} text-anchor="end">
          {lo}
        </text>
        <text class="chart-tick" x={W - PAD.right} y={H - 4} text-anchor="end">
          {t("rating.games", { count: points.length })}
        </text>
        {points.length > 1 && <polygon class="chart-band" points={band} />}
        {points.map((p, i) => (
          <line key={`band-${p.game}`} class="chart-error" x1={x(i)} y1={y(p.mu + p.sigma)} x2={x(i)} y2={y(p.mu - p.sigma)} />
        ))}
        <polyline class="chart-line" points={line} />
        {points.map((p, i) => (
          <circle key={p.game} class="chart-dot" cx={x(i)} cy={y(p.rating)} r={3}>
            <title>{`${number1(p.rating)} (μ ${number1(p.mu)} ± ${number1(p.sigma)})`}</title>
          </circle>
        ))}
      </svg>
      <figcaption class="muted small">{t("rating.chartLegend")}</figcaption>
    </figure>
  );
}
