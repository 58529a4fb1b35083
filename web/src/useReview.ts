// A post-game review as the server runs it (POST starts it, polling follows its progress):
// of a stored finished game (/api/games/{id}/review) or of a record file (/api/review).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "./api";
import { language, t } from "./i18n";
import type { MoveReview, Review, ReviewReply } from "./types";

export type ReviewState =
  | { status: "idle" }
  | { status: "running"; done: number; total: number }
  | { status: "done"; review: Review }
  | { status: "error"; message: string }
  | { status: "unavailable"; message: string };

/** How often a running review is polled (the server drops one nobody polls for 30 s). */
export const POLL_MS = 1000;

export interface ReviewModel {
  state: ReviewState;
  start: () => void;
}

/** The review of `game` (or, when null, of the record `recordText`); `autoStart` asks for it at once. */
export function useReview(game: string | null, recordText: string | null, autoStart: boolean): ReviewModel {
  const [state, setState] = useState<ReviewState>({ status: "idle" });
  const [polling, setPolling] = useState(false);
  const live = useRef(true);
  const ask = useCallback(
    (start: boolean): Promise<ReviewReply> | null => {
      if (game !== null) return api.review(game, start);
      if (recordText !== null && start) return api.reviewRecord(recordText);
      return null;
    },
    [game, recordText],
  );
  const follow = useCallback(
    async (start: boolean) => {
      const pending = ask(start);
      if (!pending) return;
      try {
        const reply = await pending;
        if (!live.current) return;
        const next = stateOf(reply);
        setState(next);
        setPolling(next.status === "running");
      } catch (e) {
        if (!live.current) return;
        setPolling(false);
        setState(errorState(e));
      }
    },
    [ask],
  );
  useEffect(() => {
    live.current = true;
    setState({ status: "idle" });
    setPolling(false);
    if (game !== null || (recordText !== null && autoStart)) void follow(autoStart);
    return () => {
      live.current = false;
    };
  }, [game, recordText, autoStart, follow]);
  useEffect(() => {
    if (!polling) return;
    // A record's review is followed by posting it again; a game's by GET.
    const t = setInterval(() => void follow(game === null), POLL_MS);
    return () => clearInterval(t);
  }, [polling, follow, game]);
  return { state, start: () => void follow(true) };
}

function stateOf(reply: ReviewReply): ReviewState {
  switch (reply.status) {
    case "done":
      return { status: "done", review: reply.review };
    case "running":
      return { status: "running", done: reply.done, total: reply.total };
    case "failed":
      return { status: "error", message: reply.message };
    default:
      return { status: "idle" };
  }
}

function errorState(e: unknown): ReviewState {
  if (e instanceof ApiError && (e.status === 404 || e.status === 405 || e.status === 503)) {
    return { status: "unavailable", message: e.status === 503 ? e.message : t("review.unavailable") };
  }
  return { status: "error", message: e instanceof Error ? e.message : t("review.failed") };
}

/** Each seat's win chance at every position 0..n (after each move; before the first at 0):
 * the mover's from the review; in a 2-player game the other's is its complement; otherwise a
 * seat keeps its last known value (null before its first). */
export function winSeries(review: Review): (number | null)[][] {
  return series(review, review.chart[0] ?? [], (m) => m.win_after, (v) => 1 - v);
}

/** Whether the review reports expected VP margins (reviews stored before them do not). */
export const hasMargins = (review: Review): boolean => review.margin_chart !== undefined && review.moves.every((m) => m.margin_after !== undefined);

/** Each seat's expected VP margin over the best other player at every position, as
 * `winSeries` (in a 2-player game the other's is the mover's negated); empty without margins. */
export function marginSeries(review: Review): (number | null)[][] {
  if (!hasMargins(review)) return [];
  return series(review, review.margin_chart?.[0] ?? [], (m) => m.margin_after ?? 0, (v) => -v);
}

function series(review: Review, first: (number | null)[], after: (m: MoveReview) => number, mirrored: (v: number) => number): (number | null)[][] {
  const n = review.moves.length;
  const out: (number | null)[][] = Array.from({ length: review.players }, () => new Array<number | null>(n + 1).fill(null));
  for (let p = 0; p < review.players; p++) out[p]![0] = first[p] ?? null;
  review.moves.forEach((m, i) => {
    for (let p = 0; p < review.players; p++) {
      const own = p === m.player ? after(m) : review.players === 2 ? mirrored(after(m)) : null;
      out[p]![i + 1] = own ?? out[p]![i] ?? null;
    }
  });
  return out;
}

/** An expected VP margin in the players' words: "6.2 VP ahead", "3.1 VP behind", "level"
 * (one decimal in the interface's language). */
export function marginWords(margin: number): string {
  const vp = Math.abs(margin).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (Math.round(margin * 10) === 0) return t("review.level");
  return margin > 0 ? t("review.ahead", { vp }) : t("review.behind", { vp });
}
