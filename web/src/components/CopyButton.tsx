import { useState } from "preact/hooks";
import { t } from "../i18n";

/** Copies `text` to the clipboard (with the text visible and selectable as a fallback). */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1600);
    } catch {
      window.prompt(t("copy.prompt"), text);
    }
  };
  return (
    <span class="copy">
      <input class="copy-text" readOnly value={text} aria-label={label ?? t("copy.copy")} onFocus={(e) => (e.currentTarget).select()} />
      <button type="button" class="btn btn-small" onClick={() => void copy()}>
        {done ? t("copy.copied") : t("copy.copy")}
        {label && <span class="sr-only"> {label}</span>}
      </button>
    </span>
  );
}
