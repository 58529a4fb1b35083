// What each bot level is, in the server's words (GET /api/levels, the descriptions of
// quadropolis.bots.LEVELS): fetched once per page and shown in the lobby. Without them (an
// older server, the request failing) the lobby simply shows no description.
import { api } from "./api";
import { isLevel, type Level } from "./types";

export type LevelDescriptions = Partial<Record<Level, string>>;

/** The descriptions of the levels this client knows, from the server's reply (anything else is ignored). */
export function readLevelDescriptions(reply: unknown): LevelDescriptions {
  const out: LevelDescriptions = {};
  if (typeof reply !== "object" || reply === null || Array.isArray(reply)) return out;
  for (const [name, text] of Object.entries(reply as Record<string, unknown>)) {
    if (isLevel(name) && typeof text === "string" && text.trim()) out[name] = text.trim();
  }
  return out;
}

let request: Promise<LevelDescriptions> | null = null;

/** The server's level descriptions, asked once per page (a failed request is asked again on the next call). */
export function loadLevelDescriptions(): Promise<LevelDescriptions> {
  request ??= api.levels().then(readLevelDescriptions, () => {
    request = null;
    return {};
  });
  return request;
}
