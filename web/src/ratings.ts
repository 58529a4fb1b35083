// Ratings, leaderboards and profiles: the server's replies and how a rating reads.
// The server computes everything (OpenSkill, the ranking, the statistics); this only shows it.
import { request } from "./api";
import { t } from "./i18n";
import { LEVEL_NAMES } from "./seats";

/** A rating: `rating` = μ − 3σ (what is shown and sorted by), with μ ± σ. */
export interface Rating {
  rating: number;
  mu: number;
  sigma: number;
}

export interface RatedPlayer extends Rating {
  place: number;
  username: string | null;
  bot: string | null;
  games: number;
}

export interface SeatRating {
  seat: number;
  place: number;
  bot: string | null;
  before: Rating;
  after: Rating;
  change: number;
}

export interface GameRatings {
  game: string;
  settled: boolean;
  rated: boolean;
  seats: SeatRating[];
}

export interface ModeRating extends Rating {
  mode: string;
  games: number;
}

export interface HistoryEntry extends Rating {
  game: string;
  mode: string;
  at: number;
}

export interface PlayedGame {
  game: string;
  seat: number;
  mode: string;
  players: number;
  finished_at: number;
  place: number;
  score: number;
  /** Each seat: its name, and the bot level of a bot's seat. */
  seats: { name: string; bot: string | null }[];
  replay: string;
  reviewed: boolean;
  rating: SeatRating | null;
}

export interface Statistics {
  mode: string;
  players: number;
  games: number;
  wins: number;
  average: number;
  best: number;
  categories: Record<string, number>;
}

export interface PlayerProfile {
  username: string;
  joined: number;
  games_played: number;
  ratings: ModeRating[];
  history: HistoryEntry[];
  games: PlayedGame[];
  statistics: Statistics[];
}

export type RatedMode = "classic" | "expert";

export const ratingsApi = {
  leaderboard: (mode: RatedMode) => request<{ mode: string; players: RatedPlayer[] }>("GET", `/api/leaderboard?mode=${mode}&limit=20`),
  game: (game: string) => request<GameRatings>("GET", `/api/games/${encodeURIComponent(game)}/ratings`),
  profile: (username: string) => request<PlayerProfile>("GET", `/api/players/${encodeURIComponent(username)}`),
};

/** One decimal, in the current language's digits, negatives with a true minus sign. */
export function number1(x: number): string {
  return x.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).replace("-", "−");
}

/** "+3.4" / "−1.2" / "±0.0": a rating change. */
export function signed(x: number): string {
  const text = number1(Math.abs(x));
  return x > 0.05 ? `+${text}` : x < -0.05 ? `−${text}` : `±${text}`;
}

/** "μ 27.6 ± 8.1": the estimate and its uncertainty. */
export function muSigma(r: Rating): string {
  return t("rating.muSigma", { mu: number1(r.mu), sigma: number1(r.sigma) });
}

/** A leaderboard line's name: the account's, or the bot level's in players' words. */
export function ratedName(p: { username: string | null; bot: string | null }): string {
  if (p.bot !== null) return LEVEL_NAMES[p.bot] ?? p.bot;
  return p.username ?? t("rating.formerPlayer");
}

/** A played game's seat in players' words: a bot by its level, a person by their name. */
export function playedSeatName(s: { name: string; bot: string | null }): string {
  return s.bot !== null ? (LEVEL_NAMES[s.bot] ?? s.bot) : s.name || t("rating.formerPlayer");
}

/** Where a player's profile is. */
export function profileUrl(username: string): string {
  return `/?player=${encodeURIComponent(username)}`;
}
