// The header's language menu: each language in its own words; the choice is remembered in this
// browser (i18n.setLanguage), and the browser's own languages choose until one is picked.
import { useEffect, useState } from "preact/hooks";
import { language, LANGUAGES, onLanguage, setLanguage, t, type Lang } from "../i18n";

/** The current language, re-rendering the caller (and so the whole tree below it) when it changes. */
export function useLanguage(): Lang {
  const [lang, setLang] = useState(language);
  useEffect(() => onLanguage(setLang), []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return lang;
}

export function LanguageSwitcher({ lang }: { lang: Lang }) {
  return (
    <label class="language">
      <span class="sr-only">{t("app.language")}</span>
      <select value={lang} data-testid="language" title={t("app.language")} onChange={(e) => void setLanguage((e.target as HTMLSelectElement).value as Lang).catch(() => undefined)}>
        {(Object.keys(LANGUAGES) as Lang[]).map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
