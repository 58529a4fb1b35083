// A message that cites rulings, "(R8)" or "(R8, R16)", with each ruling a link to its
// explanation on the rules page (/rules#r8). Only a parenthesised list of rulings counts:
// slot names such as R4 elsewhere in a message are not rulings.
import { Fragment } from "preact";
import { t } from "../i18n";

const CITATION = /\((R\d+(?:, R\d+)*)\)/g;

/** The pieces of `text`: plain text, and rulings (as "R8") within citations. */
export function ruleParts(text: string): { text: string; ruling: boolean }[] {
  const parts: { text: string; ruling: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(CITATION)) {
    const start = m.index;
    parts.push({ text: text.slice(at, start + 1), ruling: false });
    (m[1] ?? "").split(", ").forEach((r, i) => {
      if (i > 0) parts.push({ text: ", ", ruling: false });
      parts.push({ text: r, ruling: true });
    });
    at = start + m[0].length - 1;
  }
  parts.push({ text: text.slice(at), ruling: false });
  return parts.filter((p) => p.text !== "");
}

export function RuleText({ text }: { text: string }) {
  return (
    <>
      {ruleParts(text).map((p, i) =>
        p.ruling ? (
          <a key={i} class="ruling-link" href={`/rules#${p.text.toLowerCase()}`} target="_blank" rel="noopener" title={t("rules.linkTitle", { ruling: p.text })}>
            {p.text}
          </a>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}
