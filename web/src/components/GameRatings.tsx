// The end screen's rating line: each seat's rating after the game and its change,
// from GET /api/games/{id}/ratings. A game just finished is settled by the server a moment
// later: the reply is asked again until it is (a few seconds at most).
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n";
import { muSigma, number1, ratingsApi, signed, type GameRatings as Ratings } from "../ratings";
import { seatName } from "../seats";
import type { View } from "../types";
import "../ratings.css";

const TRIES = 20;
const PAUSE_MS = 400;

function useGameRatings(game: string): Ratings | null {
  const [ratings, setRatings] = useState<Ratings | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const ask = (left: number) => {
      ratingsApi.game(game).then(
        (r) => {
          if (stopped) return;
          if (r.settled) setRatings(r);
          else if (left > 0) timer = window.setTimeout(() => ask(left - 1), PAUSE_MS);
        },
        () => undefined, // no rating line: the rest of the end screen stands
      );
    };
    ask(TRIES);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [game]);
  return ratings;
}

export function GameRatings({ view }: { view: View }) {
  const ratings = useGameRatings(view.game ?? "");
  if (!ratings) return null;
  if (!ratings.rated) {
    return (
      <p class="muted small" data-testid="game-unrated">
        {t("rating.unratedGame")}
      </p>
    );
  }
  return (
    <section class="game-ratings" aria-labelledby="game-ratings-title" data-testid="game-ratings">
      <h2 id="game-ratings-title" class="small">
        {t("rating.changes")}
      </h2>
      <ul>
        {ratings.seats.map((s) => (
          <li key={s.seat} data-testid={`rating-change-${s.seat}`}>
            <span>{seatName(view.seats[s.seat], s.seat)}</span>{" "}
            <b>{number1(s.after.rating)}</b>{" "}
            <span class={s.change > 0.05 ? "gain" : s.change < -0.05 ? "loss" : "muted"}>({signed(s.change)})</span>{" "}
            <span class="muted small">{muSigma(s.after)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
