// Where the page is: the lobby, a game (to play or watch), an invite, or the replay viewer.
// Links come from the server: seat links `/?game=ID&seat=0#token=TOKEN` (the token stays in
// the fragment, never sent to a server), invites `/?game=ID&join=1`, watch links `/?game=ID`.
// The client adds `/?replay=ID` (a stored finished game), `/?replay=file` (an uploaded record),
// `/?daily` (the daily challenge; `/?daily=YYYY-MM-DD` a past day's) and `/?player=NAME`
// (a player's profile).

export type Route =
  | { page: "lobby" }
  | { page: "game"; game: string; seat: number | null; token: string | null }
  | { page: "join"; game: string; seat: number }
  | { page: "replay"; game: string | null }
  | { page: "daily"; day: string | null }
  | { page: "profile"; player: string };

const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const USERNAME = /^[A-Za-z0-9_-]{1,64}$/;
const TOKEN = /^[A-Za-z0-9_-]{8,128}$/;

export function parseRoute(search: string, hash: string): Route {
  const q = new URLSearchParams(search);
  const player = q.get("player");
  if (player !== null && USERNAME.test(player)) return { page: "profile", player };
  const replay = q.get("replay");
  if (replay !== null) {
    return { page: "replay", game: replay && replay !== "file" && GAME_ID.test(replay) ? replay : null };
  }
  const daily = q.get("daily");
  if (daily !== null) return { page: "daily", day: /^\d{4}-\d{2}-\d{2}$/.test(daily) ? daily : null };
  const game = q.get("game");
  if (!game || !GAME_ID.test(game)) return { page: "lobby" };
  const join = q.get("join");
  if (join !== null && /^\d$/.test(join)) return { page: "join", game, seat: Number(join) };
  const seatText = q.get("seat");
  const seat = seatText !== null && /^\d$/.test(seatText) ? Number(seatText) : null;
  const fragment = new URLSearchParams(hash.replace(/^#/, ""));
  const token = fragment.get("token");
  return { page: "game", game, seat, token: token && TOKEN.test(token) ? token : null };
}

export function gameUrl(game: string): string {
  return `/?game=${encodeURIComponent(game)}`;
}

export function seatLink(game: string, seat: number, token: string): string {
  return `/?game=${encodeURIComponent(game)}&seat=${seat}#token=${token}`;
}

export function replayUrl(game: string | null): string {
  return `/?replay=${game === null ? "file" : encodeURIComponent(game)}`;
}

/** The daily challenge's page: today's, or a past day's (`YYYY-MM-DD`). */
export function dailyUrl(day: string | null = null): string {
  return day === null ? "/?daily" : `/?daily=${day}`;
}

export function absolute(path: string): string {
  return new URL(path, window.location.origin).toString();
}

/** Navigate inside the single-page app. */
export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState(null, "", path);
  else window.history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** A link's click handler that navigates inside the app (a modified or middle click still opens a tab). */
export function linkTo(path: string) {
  return (e: MouseEvent) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(path);
  };
}
