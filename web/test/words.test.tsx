// The last English strings translated: in every other language, the lobby's level descriptions,
// the account panel and the slots' screen-reader words are the catalogue's, and no known
// English phrase is left among them.
import renderToString from "preact-render-to-string";
import { afterEach, describe, expect, it } from "vitest";
import { SignedIn, SignIn } from "../src/components/Account";
import { NewGame } from "../src/components/NewGame";
import { LANGUAGES, setLanguage, type Lang } from "../src/i18n";
import { inLanguage } from "../src/levels";
import en from "../src/locales/en.json";
import { slotPreview } from "../src/marks";
import { blockedSlots, legalTakes } from "../src/play";
import { LEVELS } from "../src/types";
import { classicView } from "./fixtures";

/** GET /api/levels as the server serves it: en.json's levelInfo.* are the core's sentences. */
const SERVED = Object.fromEntries(LEVELS.map((l) => [l, en[`levelInfo.${l}`]]));

/** English phrases a player must not meet in another language (each longer than a word). */
const ENGLISH = [
  ...LEVELS.map((l) => en[`levelInfo.${l}`]),
  "Your account",
  "Optional: with an account",
  "Username",
  "Password",
  "Log in",
  "Register",
  "Logged in as",
  "Log out",
  "No game yet",
  "designates",
  "you take nothing",
  "already holds an architect",
  "closed by the urbanist",
  "cannot go to",
];

const OTHERS = Object.keys(LANGUAGES).filter((l) => l !== "en") as Lang[];
const noop = () => undefined;

function visible(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/&#x27;|&#39;/g, "'");
}

function panelsAndPreviews(): string {
  const levels = inLanguage(SERVED);
  const view = classicView();
  const input = { view, tiles: null, takes: legalTakes(view), blocked: blockedSlots(view), architect: 3 };
  const previews = ["T1", "L4", "B3"].map((hover) => slotPreview({ ...input, hover }).text);
  return [
    visible(renderToString(<NewGame onCreated={noop} levels={levels} />)),
    ...LEVELS.map((l) => levels[l] ?? ""),
    visible(renderToString(<SignIn onSignedIn={noop} />)),
    visible(renderToString(<SignedIn me={{ username: "ann" } as never} onLogout={noop} />)),
    ...previews,
  ].join("\n");
}

describe("the last English strings translated", () => {
  afterEach(async () => {
    await setLanguage("en");
  });

  it("are English in English: the level descriptions are the server's", () => {
    expect(inLanguage(SERVED)).toEqual(SERVED);
    const text = panelsAndPreviews();
    for (const phrase of ["Optional: with an account", "Username", "Logged in as", "designates", en["levelInfo.easy"]]) expect(text).toContain(phrase);
  });

  it.each(OTHERS)("are all translated in %s", async (lang) => {
    await setLanguage(lang);
    const text = panelsAndPreviews();
    const left = ENGLISH.filter((phrase) => text.includes(phrase));
    expect(left).toEqual([]);
    expect(inLanguage(SERVED).hard).not.toBe(SERVED.hard);
  });
});
