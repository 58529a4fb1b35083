// What each bot level is (GET /api/levels, the descriptions of quadropolis.bots.LEVELS):
// fetched once per page and shown in the lobby in the interface's language, from the
// catalogue's `levelInfo.*` keys (en.json's are the core's sentences, checked by
// tests/project/test_translations.py); a level the catalogue does not know keeps the server's
// English. Without the reply (an older server, the request failing) the lobby shows none.
import { api } from "./api";
import { tOptional } from "./i18n";
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

/** `descriptions` in the current language: each level the server describes, in the
 * catalogue's words where it has them, else in the server's. */
export function inLanguage(descriptions: LevelDescriptions): LevelDescriptions {
  const out: LevelDescriptions = {};
  for (const [name, text] of Object.entries(descriptions) as [Level, string][]) {
    out[name] = tOptional(`levelInfo.${name}`) ?? text;
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
