// The interface's languages: one typed lookup over the catalogues in locales/*.json, with
// `{name}` interpolation and plurals chosen by Intl.PluralRules (a message whose value is an
// object of plural forms, picked by the `count` parameter). Hand-written rather than a library:
// the whole need is these few lines, keys are checked by TypeScript against en.json, and the
// client stays free of a runtime dependency and of a Preact context to thread through components
// (a language change re-renders the tree from App, whose components are not memoised).
import de from "./locales/de.json";
import en from "./locales/en.json";
import fr from "./locales/fr.json";
import hu from "./locales/hu.json";
import pt from "./locales/pt.json";
import ru from "./locales/ru.json";

export type Key = keyof typeof en;
export type Message = string | Partial<Record<Intl.LDMLPluralRule, string>>;
export type Catalogue = Record<string, Message>;
export type Params = Record<string, string | number>;

/** Each language in its own words, in the switcher's order. */
export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch", pt: "Português", hu: "Magyar", ru: "Русский" } as const;
export type Lang = keyof typeof LANGUAGES;
export const CATALOGUES: Record<Lang, Catalogue> = { en, fr, de, pt, hu, ru };

const STORAGE_KEY = "quadropolis.language";
const isLang = (l: string): l is Lang => Object.hasOwn(LANGUAGES, l);

/** The first of `preferred` (BCP 47 tags, as navigator.languages) the interface speaks, else English. */
export function pickLanguage(preferred: readonly string[]): Lang {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0] ?? "";
    if (isLang(base)) return base;
  }
  return "en";
}

function remembered(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage refused (private mode): the browser's language it is
  }
}

function initial(): Lang {
  const saved = remembered();
  if (saved && isLang(saved)) return saved;
  return typeof navigator === "undefined" ? "en" : pickLanguage(navigator.languages ?? [navigator.language]);
}

let current: Lang = initial();
const listeners = new Set<(l: Lang) => void>();

export const language = (): Lang => current;

/** Switches the interface to `lang`, remembers it in this browser and tells the subscribers. */
export function setLanguage(lang: Lang): void {
  current = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not remembered, still switched
  }
  if (typeof document !== "undefined") document.documentElement.lang = lang;
  for (const l of listeners) l(lang);
}

export function onLanguage(listener: (l: Lang) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `message` with its plural form for `params.count` chosen and each `{name}` replaced. */
export function format(lang: Lang, message: Message, params: Params = {}): string {
  let text: string;
  if (typeof message === "string") text = message;
  else {
    const form = new Intl.PluralRules(lang).select(Number(params.count ?? 0));
    text = message[form] ?? message.other ?? "";
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The text of `key` in the current language (English where a catalogue lacks it). */
export function t(key: Key, params?: Params): string {
  const message = CATALOGUES[current][key] ?? CATALOGUES.en[key]!;
  return format(current, message, params);
}

/** The text of `key` if it is a key (a server's error code, say), else null. */
export function tOptional(key: string, params?: Params): string | null {
  return Object.hasOwn(CATALOGUES.en, key) ? t(key as Key, params) : null;
}

/** A record whose values are read from the catalogue (`prefix` + key) each time, so they follow the language. */
export function liveRecord<K extends string>(keys: readonly K[], prefix: string): Record<K, string> {
  const record = {} as Record<K, string>;
  for (const k of keys) Object.defineProperty(record, k, { enumerable: true, get: () => t(`${prefix}${k}` as Key) });
  return record;
}

/**
 * A server error reply in players' words. In English, the server's own message (it may carry
 * details, counts or a ruling); in another language, the words for its `code`, else the
 * server's message. The engine's illegal-move reasons carry no parameters on the wire, so they
 * stay in English (README, "Languages").
 */
export function errorText(code: string, message: string): string {
  if (current === "en" || code === "illegal_move") return message;
  return tOptional(`error.${code}`) ?? message;
}
