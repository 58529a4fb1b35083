// The guided first game's lesson card: the lesson due now (guide.ts decides which), read and
// put away with "Got it"; at the end, the player's final score sheet category by category.
import { useState } from "preact/hooks";
import { dueLesson, guideFacts, markSeen, scoreLines, seenLessons } from "../guide";
import type { TileIndex } from "../tiles";
import { TEXT } from "../text";
import type { View } from "../types";

export function Guide({ view, tiles, seat }: { view: View; tiles: TileIndex | null; seat: number }) {
  const game = view.game ?? "";
  const [seen, setSeen] = useState(() => seenLessons(game));
  const lesson = dueLesson(guideFacts(view, seat, tiles), seen);
  if (!lesson) return null;
  const lines = lesson.when.kind === "over" ? scoreLines(view, seat) : [];
  return (
    <aside class="guide" aria-labelledby="guide-title" data-lesson={lesson.id} data-testid="guide">
      <p class="guide-kicker">{TEXT.guideTitle}</p>
      <h2 id="guide-title">{lesson.title}</h2>
      {lesson.body.map((text, i) => (
        <p key={i}>{text}</p>
      ))}
      {lesson.when.kind === "over" && (
        <table class="guide-score">
          <tbody>
            {lines.map((l) => (
              <tr key={l.category}>
                <th scope="row">{l.name}</th>
                <td class="guide-points">{l.points}</td>
                <td class="muted small">{l.explains}</td>
              </tr>
            ))}
            <tr class="total">
              <th scope="row">{TEXT.guideTotal}</th>
              <td class="guide-points">{view.scores[seat]?.total ?? 0}</td>
              <td />
            </tr>
          </tbody>
        </table>
      )}
      <button type="button" class="btn btn-primary" data-testid="guide-ok" onClick={() => setSeen(markSeen(game, lesson.id))}>
        {TEXT.guideGotIt}
      </button>
    </aside>
  );
}
