// A translated text with elements in it: each `{name}` of the catalogue's text (an icon, a
// key, a link) replaced by the element given for it, so that translators move the element
// with the words around it.
import { Fragment, type ComponentChild } from "preact";

/** `text` as pieces, each `{name}` of `parts` replaced by its element (others left as text). */
export function rich(text: string, parts: Record<string, ComponentChild>): ComponentChild[] {
  return text.split(/(\{\w+\})/).map((piece, i) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return <Fragment key={i}>{name !== undefined && name in parts ? parts[name] : piece}</Fragment>;
  });
}
