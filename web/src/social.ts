// The daily challenge, rematches and table chat: their HTTP calls, the
// shareable result line, and the chat's mute switch (kept in this browser).
import { request } from "./api";
import { t } from "./i18n";
import { ordinal } from "./seats";
import type { Created, SeatPass } from "./types";

export interface BoardLine {
  rank: number;
  username: string;
  /** `null` while the day's games are hidden from this viewer (see `games_shown`). */
  game: string | null;
  seat: number;
  /** Place at its own table (R13) among `of` players. */
  place: number;
  of: number;
  vp: number;
}

export interface Daily {
  type: "daily";
  day: string;
  today: boolean;
  mode: "classic" | "expert";
  players: number;
  opponents: string[];
  /** Whether the board names the day's games: today, only once one's own is played to the end. */
  games_shown?: boolean;
  leaderboard: BoardLine[];
  top: { game: string; seat: number }[];
  you: { game: string; line: BoardLine | null } | null;
  /** Only for `/api/games/{id}/daily`: that game's result. */
  game?: { ranked: boolean; practice?: boolean; seat: number; place: number | null; of: number | null; vp: number | null };
}

/** POST /api/daily/games: the new game, whether it counts on the day's board, or is practice. */
export type DailyStart = Created & { ranked: boolean; practice: boolean };

export interface ChatLine {
  seat: number;
  name: string;
  text: string;
  at: number;
}

export interface RematchReply {
  game: string;
  seats: SeatPass[];
}

const enc = encodeURIComponent;

export const socialApi = {
  daily: (day: string | null) => request<Daily>("GET", day ? `/api/daily/${enc(day)}` : "/api/daily"),
  dailyOfGame: (game: string) => request<Daily>("GET", `/api/games/${enc(game)}/daily`),
  startDaily: (name: string) => request<DailyStart>("POST", "/api/daily/games", { name }),
  rematchOf: (game: string) => request<{ game: string; rematch: string | null }>("GET", `/api/games/${enc(game)}/rematch`),
  rematch: (game: string, tokens: string[]) => request<RematchReply>("POST", `/api/games/${enc(game)}/rematch`, { tokens }),
  decline: (game: string, tokens: string[]) => request<unknown>("POST", `/api/games/${enc(game)}/rematch/decline`, { tokens }),
};

/** The line a player shares after the day's challenge: their place on the day's leaderboard
 *  when ranked, else their place at the table. */
export function shareText(daily: Daily, vp: number, place: number, of: number, ranked: boolean): string {
  const where = ranked
    ? t("daily.shareRanked", { place, count: of })
    : t("daily.shareTable", { place: ordinal(place), count: of });
  return t("daily.share", { day: daily.day, where, vp });
}

const MUTE_KEY = "quadropolis.chatMuted";

export function chatMuted(): boolean {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

export function setChatMuted(muted: boolean): void {
  try {
    if (muted) localStorage.setItem(MUTE_KEY, "1");
    else localStorage.removeItem(MUTE_KEY);
  } catch {
    // not remembered: muted for this page only
  }
}
