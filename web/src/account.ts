// Accounts: the session lives in an HttpOnly cookie the page never sees; these
// calls only say who is logged in and list their games.
import { request, type CreateSpec } from "./api";
import type { Created, Result } from "./types";

export interface Me {
  username: string;
  joined: number;
}

export interface MyGame {
  game: string;
  status: string;
  seats: number[];
  your_turn: boolean;
  names: string[];
  mode: string;
  players: number;
  created_at: number;
  finished_at: number | null;
  result: Result | null;
  link: string;
}

export interface MyGames {
  your_turn: MyGame[];
  waiting: MyGame[];
  playing: MyGame[];
  finished: MyGame[];
}

export const accountApi = {
  me: () => request<Me>("GET", "/api/me"),
  register: (username: string, password: string) => request<Me>("POST", "/api/accounts", { username, password }),
  login: (username: string, password: string) => request<Me>("POST", "/api/session", { username, password }),
  logout: () => request<null>("DELETE", "/api/session"),
  games: () => request<MyGames>("GET", "/api/me/games"),
  /** Create a game whose taken seats are the account's (named after it). */
  create: (spec: CreateSpec) => request<Created>("POST", "/api/me/games", spec),
};
