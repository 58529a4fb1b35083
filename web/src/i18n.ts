// The interface's languages: one typed lookup over the catalogues in locales/*.json, with
// `{name}` interpolation and plurals chosen by Intl.PluralRules (a message whose value is an
// object of plural forms, picked by the `count` parameter). Hand-written rather than a library:
// the whole need is these few lines, keys are checked by TypeScript against en.json, and the
// client stays free of a runtime dependency and of a Preact context to thread through components
// (a language change re-renders the tree from App, whose components are not memoised).
// English is bundled (the fallback of every lookup); each other catalogue is a chunk of its
// own, fetched when its language is first chosen, so a visitor downloads only their language.
import en from "./locales/en.json";

export type Key = keyof typeof en;
export type Message = string | Partial<Record<Intl.LDMLPluralRule, string>>;
export type Catalogue = Record<string, Message>;
export type Params = Record<string, string | number>;

/** Each language in its own words, in the switcher's order. */
export const LANGUAGES = { en: "English", fr: "Français", de: "Deutsch", pt: "Português", hu: "Magyar", ru: "Русский" } as const;
export type Lang = keyof typeof LANGUAGES;
type Loaded = Promise<{ default: Catalogue }>;

/** Each non-English catalogue's chunk (Vite splits every dynamic import into its own file). */
const LOADERS: Record<Exclude<Lang, "en">, () => Loaded> = {
  fr: () => import("./locales/fr.json"),
  de: () => import("./locales/de.json"),
  pt: () => import("./locales/pt.json"),
  hu: () => import("./locales/hu.json"),
  ru: () => import("./locales/ru.json"),
};

/** The catalogues loaded so far (English always). */
const catalogues: Partial<Record<Lang, Catalogue>> = { en };

/** The catalogue of `lang`, fetched on first use (rejects if its chunk cannot be loaded). */
export async function loadCatalogue(lang: Lang): Promise<Catalogue> {
  const have = catalogues[lang];
  if (have) return have;
  const loaded = (await LOADERS[lang as Exclude<Lang, "en">]()).default;
  catalogues[lang] = loaded;
  return loaded;
}

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

let current: Lang = "en";
const listeners = new Set<(l: Lang) => void>();

export const language = (): Lang => current;

/** Loads `lang`'s catalogue, then makes it the interface's and tells the subscribers. */
async function switchTo(lang: Lang): Promise<void> {
  await loadCatalogue(lang);
  current = lang;
  if (typeof document !== "undefined") document.documentElement.lang = lang;
  for (const l of listeners) l(lang);
}

/** Switches the interface to `lang` once its catalogue is loaded, and remembers it in this
 * browser. Rejects (the language unchanged) if the catalogue cannot be fetched. */
export async function setLanguage(lang: Lang): Promise<void> {
  await switchTo(lang);
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not remembered, still switched
  }
}

/** Settles when the remembered or the browser's language is loaded (English if it cannot be):
 * the app renders after it, so a French visitor never sees the English interface first. */
export const languageReady: Promise<void> = switchTo(initial()).catch(() => undefined);

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
  const message = catalogues[current]?.[key] ?? en[key];
  return format(current, message, params);
}

/** The text of `key` if it is a key (a server's error code, say), else null. */
export function tOptional(key: string, params?: Params): string | null {
  return Object.hasOwn(en, key) ? t(key as Key, params) : null;
}

/** A record whose values are read from the catalogue (`prefix` + key) each time, so they follow the language. */
export function liveRecord<K extends string>(keys: readonly K[], prefix: string): Record<K, string> {
  const record = {} as Record<K, string>;
  for (const k of keys) Object.defineProperty(record, k, { enumerable: true, get: () => t(`${prefix}${k}` as Key) });
  return record;
}

/** The engine's reason for refusing a move and its values (a server's `illegal_move` reply). */
export interface Refusal {
  reason?: string | null;
  params?: Params | null;
}

/**
 * A server error reply in players' words. In English, the server's own message (it may carry
 * details, counts or a ruling); in another language, the words for its `code`, else the
 * server's message. An illegal move is said from the engine's `reason` code and its values
 * (`illegal.*` keys, rulings kept as "(R8)" for RuleText to link), building types and the
 * mode in the language's words.
 */
export function errorText(code: string, message: string, refusal?: Refusal): string {
  if (current === "en") return message;
  if (code === "illegal_move") {
    return refusal?.reason ? (tOptional(`illegal.${refusal.reason}`, inWords(refusal.params ?? {})) ?? message) : message;
  }
  return tOptional(`error.${code}`) ?? message;
}

/** A refusal's values with building type keys and the mode in the current language's words. */
function inWords(params: Params): Params {
  const out: Params = { ...params };
  for (const name of ["building", "below"]) {
    const v = params[name];
    if (v !== undefined) out[name] = tOptional(`type.${v}`) ?? String(v);
  }
  if (params.mode !== undefined) out.mode = tOptional(`mode.${params.mode}`) ?? String(params.mode);
  return out;
}
