// The seat tokens this browser holds, per game, in localStorage: reopening a game (or
// reloading the page) restores every seat held, and one browser may hold several seats of
// one game (hotseat). Tokens are never shown or sent anywhere but to this server.

const PREFIX = "quadropolis:seats:";
const NAME_KEY = "quadropolis:name";

export type SeatTokens = Record<number, string>;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function loadTokens(game: string): SeatTokens {
  const raw = storage()?.getItem(PREFIX + game);
  if (!raw) return {};
  try {
    const data = JSON.parse(raw) as Record<string, unknown>;
    const out: SeatTokens = {};
    for (const [k, v] of Object.entries(data)) {
      if (/^\d$/.test(k) && typeof v === "string") out[Number(k)] = v;
    }
    return out;
  } catch {
    return {};
  }
}

export function saveToken(game: string, seat: number, token: string): SeatTokens {
  const tokens = { ...loadTokens(game), [seat]: token };
  storage()?.setItem(PREFIX + game, JSON.stringify(tokens));
  return tokens;
}

export function forgetSeat(game: string, seat: number): void {
  const tokens = loadTokens(game);
  delete tokens[seat];
  storage()?.setItem(PREFIX + game, JSON.stringify(tokens));
}

/** Games this browser holds a seat in (newest last), for the lobby's "your games". */
export function heldGames(): string[] {
  const s = storage();
  if (!s) return [];
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (key?.startsWith(PREFIX)) out.push(key.slice(PREFIX.length));
  }
  return out.sort();
}

export function playerName(): string {
  return storage()?.getItem(NAME_KEY) ?? "";
}

export function savePlayerName(name: string): void {
  storage()?.setItem(NAME_KEY, name);
}

const RECENT_KEY = "quadropolis:recent";

/** Remember a game opened here (most recent first, at most 20). */
export function rememberGame(game: string): void {
  const s = storage();
  if (!s) return;
  const list = recentGames().filter((g) => g !== game);
  list.unshift(game);
  s.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 20)));
}

export function recentGames(): string[] {
  try {
    const data = JSON.parse(storage()?.getItem(RECENT_KEY) ?? "[]") as unknown;
    return Array.isArray(data) ? data.filter((g): g is string => typeof g === "string") : [];
  } catch {
    return [];
  }
}
