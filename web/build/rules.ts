// The rules page (/rules): docs/rules.md and docs/tiles.md, the rules of record, rendered to
// HTML at build time with markdown-it, so the documents stay the single source of the text.
//
// What the page adds to a plain rendering: every heading gets the id GitHub gives it (the
// documents link to one another that way), a ruling heading ("### <a id="r8"></a>R8 — ...")
// carries its ruling's id itself ("/rules#r8" lands on the heading), links between the two
// documents become links inside the page, and wide tables scroll on their own on a phone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import anchor from "markdown-it-anchor";
import type Token from "markdown-it/lib/token.mjs";

/** The documents on the page, in order: file name (in docs/) and the id of its section. */
export const RULES_DOCUMENTS = [
  { file: "rules.md", id: "rules" },
  { file: "tiles.md", id: "tiles" },
] as const;

/** Where the rendered documents go in rules.html. */
export const RULES_SLOT = "<!-- quadropolis:rules-documents -->";

const RULING_ANCHOR = /^<a id="(r\d+)"><\/a>$/;

/** GitHub's heading ids: lower case, punctuation dropped, each space a hyphen. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** A ruling heading takes the id of the empty anchor that opens it (docs/rules.md writes
 * `### <a id="r8"></a>R8 — ...`), and the anchor goes. */
function rulingIds(state: { tokens: Token[] }): void {
  state.tokens.forEach((token, i) => {
    const inline = state.tokens[i + 1];
    if (token.type !== "heading_open" || !inline?.children) return;
    const [open, close] = inline.children;
    const m = open?.type === "html_inline" && close?.type === "html_inline" ? RULING_ANCHOR.exec(open.content + close.content) : null;
    if (!m?.[1]) return;
    token.attrSet("id", m[1]);
    inline.children = inline.children.slice(2);
  });
}

/** A link to one of the two documents, rewritten to its place on this page; a link to any
 * other document is an error (the page would show a dead link). */
export function pageHref(href: string): string {
  const m = /^([\w-]+\.md)(#.*)?$/.exec(href);
  if (!m?.[1]) return href;
  if (m[2]) return m[2];
  const doc = RULES_DOCUMENTS.find((d) => d.file === m[1]);
  if (!doc) throw new Error(`rules page: a link to ${href}, which the page does not include`);
  return `#${doc.id}`;
}

function renderer(): MarkdownIt {
  const md = new MarkdownIt({ html: true, typographer: false });
  md.core.ruler.push("ruling_ids", rulingIds);
  md.use(anchor, {
    slugify,
    tabIndex: false,
    permalink: anchor.permalink.linkInsideHeader({
      symbol: "#",
      placement: "after",
      class: "heading-link",
      renderAttrs: () => ({ "aria-label": "Link to this section" }),
    }),
  });
  // A table or a block of code wider than a phone scrolls on its own, reachable by keyboard.
  md.renderer.rules.table_open = () => '<div class="table-wrap" tabindex="0"><table>\n';
  md.renderer.rules.table_close = () => "</table></div>\n";
  const link = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    const token = tokens[i];
    const href = token?.attrGet("href");
    if (token && href) token.attrSet("href", pageHref(href));
    return link(tokens, i, options, env, self);
  };
  return md;
}

/** The two documents as HTML sections, from the docs/ directory ``docs``. Ids must be unique
 * on the page: a heading repeated across the documents is an error. */
export function renderRules(docs: string): string {
  const md = renderer();
  const html = RULES_DOCUMENTS.map(
    (d) => `<section class="rules-doc" id="${d.id}">\n${md.render(readFileSync(join(docs, d.file), "utf8"))}</section>\n`,
  )
    .join("")
    .replaceAll("<pre>", '<pre tabindex="0">');
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length) throw new Error(`rules page: ids used twice: ${twice.join(", ")}`);
  return html;
}
