// The HTTP side of the protocol: lobby, creating and joining games, records, replay and
// analysis. Every failure is an ApiError carrying the server's code and message.
import type {
  AnalysisReply,
  Created,
  GameListEntry,
  GameRecord,
  Level,
  Mode,
  MovesSoFar,
  ReplayReply,
  ReviewReply,
  SeatPass,
  GameStatus,
  TileInfo,
  View,
} from "./types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A JSON body already serialised (records keep their seed digits exact: see `recordBody`). */
class RawJson {
  constructor(readonly text: string) {}
}

export async function request<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  // The header a cross-site page cannot send: the server's CSRF check for account requests.
  const headers: Record<string, string> = { Accept: "application/json", "X-Quadropolis-Client": "1" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  const payload = body === undefined ? undefined : body instanceof RawJson ? body.text : JSON.stringify(body);
  try {
    response = await fetch(path, { method, headers, body: payload });
  } catch {
    throw new ApiError(0, "offline", "The server cannot be reached. Check your connection and try again.");
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data as { code?: string; message?: string } | null;
    throw new ApiError(response.status, err?.code ?? "http_" + response.status, err?.message ?? response.statusText);
  }
  return data as T;
}

export interface SeatSpec {
  type: "human" | "bot";
  level?: Level;
  /** A hotseat player's name. */
  name?: string;
}

export interface CreateSpec {
  mode: Mode;
  players: number;
  seats: SeatSpec[];
  name: string;
  take: number[];
  public: boolean;
  variants: { urbanist_blocks: "lines" | "square"; all_parks_absorb: boolean };
  takeover_after?: number;
  takeover_level?: Level;
  /** A seat, or "random" for the server to draw (default seat 0). */
  first_player?: number | "random";
  /** The guided first game's deal. */
  guided?: boolean;
  /** The clock: seconds per move (live 60–300, correspondence 86400–259200). */
  move_time?: number;
}

/** Whitespace outside strings removed, nothing else touched. */
export function minifyJson(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_m: string, str: string | undefined) => str ?? "");
}

/**
 * `{"record": <the record's own text>, "at": N}`. A record's seed is a 64-bit integer that
 * JavaScript numbers cannot hold exactly, so a record is never parsed and re-serialised:
 * its text is sent as it came (from the server or from the file).
 */
export function recordBody(recordText: string, at: number): RawJson {
  return new RawJson(`{"record":${minifyJson(recordText)},"at":${Math.trunc(at)}}`);
}

/** Fetch a finished game's record as text (see `recordBody`). */
async function recordText(game: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(game)}/record`, { headers: { Accept: "application/json" } });
  } catch {
    throw new ApiError(0, "offline", "The server cannot be reached. Check your connection and try again.");
  }
  const text = await response.text();
  if (!response.ok) {
    let err: { code?: string; message?: string } | null = null;
    try {
      err = JSON.parse(text) as { code?: string; message?: string };
    } catch {
      err = null;
    }
    throw new ApiError(response.status, err?.code ?? `http_${response.status}`, err?.message ?? response.statusText);
  }
  return text;
}

export const api = {
  /** Each bot level's name and what it is (`LevelDescriptions` in levels.ts reads it). */
  levels: () => request<unknown>("GET", "/api/levels"),
  tiles: () => request<TileInfo[]>("GET", "/api/tiles"),
  games: (status: "waiting" | "playing" | "over", limit = 50) =>
    request<{ games: GameListEntry[] }>("GET", `/api/games?status=${status}&limit=${limit}`),
  create: (spec: CreateSpec) => request<Created>("POST", "/api/games", spec),
  view: (game: string, token?: string) => request<View>("GET", `/api/games/${encodeURIComponent(game)}`, undefined, token),
  join: (game: string, seat: number, name: string) =>
    request<SeatPass>("POST", `/api/games/${encodeURIComponent(game)}/seats/${seat}`, { name }),
  /** Cancel a game waiting for players (the creator's seat token), leave one, resign a running one. */
  cancel: (game: string, token: string) => request<unknown>("DELETE", `/api/games/${encodeURIComponent(game)}`, undefined, token),
  leave: (game: string, seat: number, token: string) =>
    request<unknown>("POST", `/api/games/${encodeURIComponent(game)}/leave`, { seat }, token),
  resign: (game: string, seat: number, token: string) =>
    request<GameStatus>("POST", `/api/games/${encodeURIComponent(game)}/resign`, { seat }, token),
  moves: (game: string) => request<MovesSoFar>("GET", `/api/games/${encodeURIComponent(game)}/moves`),
  record: (game: string) => request<GameRecord>("GET", `/api/games/${encodeURIComponent(game)}/record`),
  recordText,
  /** Requested endpoint: the view of a record after its first `at` moves. */
  replay: (recordText: string, at: number) => request<ReplayReply>("POST", "/api/replay", recordBody(recordText, at)),
  analysis: (game: string, at: number | null, token?: string) =>
    request<AnalysisReply>(
      "GET",
      `/api/games/${encodeURIComponent(game)}/analysis` + (at === null ? "" : `?at=${at}`),
      undefined,
      token,
    ),
  analyseRecord: (recordText: string, at: number) => request<AnalysisReply>("POST", "/api/analysis", recordBody(recordText, at)),
  /** A finished game's post-game review: `start` begins it (or follows the one under way). */
  review: (game: string, start: boolean) =>
    request<ReviewReply>(start ? "POST" : "GET", `/api/games/${encodeURIComponent(game)}/review`),
  /** The review of a record (post it again to follow it). */
  reviewRecord: (recordText: string) => request<ReviewReply>("POST", "/api/review", new RawJson(`{"record":${minifyJson(recordText)}}`)),
};
