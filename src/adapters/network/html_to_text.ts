/**
 * Turns an HTML page into readable text: no scripts, styles or markup; entities decoded. The one
 * HTML-to-text of Radar (fetch_url, URL monitors, HTML mail). Hand-written on purpose: every page
 * and mail is hostile, and the parsers measured on Deno 2.9.6 are superlinear on unclosed nesting
 * (node-html-parser 9.0.7: 100 KB of `<div>` 9 s, 400 KB 157 s; htmlparser2 12: 400 KB of `<b><i>`
 * 8 s; html-to-text 10: stack overflow). This is one forward pass that keeps no element stack.
 */

const named: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  copy: "©",
  reg: "®",
  trade: "™",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  bull: "•",
  middot: "·",
  euro: "€",
  pound: "£",
};

/** Decodes HTML character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, entity: string) => {
    if (entity[0] === "#") {
      const hex = entity[1].toLowerCase() === "x";
      const code = hex ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return named[entity.toLowerCase()] ?? all;
  });
}

/** Elements whose content is never readable text. */
const hidden = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "head",
  "iframe",
  "object",
  "canvas",
]);
const blocks = new Set([
  "p",
  "div",
  "section",
  "article",
  "header",
  "footer",
  "nav",
  "aside",
  "main",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "table",
  "tr",
  "blockquote",
  "pre",
  "form",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
  "br",
]);

/**
 * The page's title and readable text. One pass over the page (linear time: a hostile page of
 * unclosed tags or comments cannot stall Radar the way backtracking regular expressions can).
 */
export function htmlToText(html: string): { title: string; text: string } {
  const parts: string[] = [];
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf("<", index);
    if (open === -1) {
      parts.push(html.slice(index));
      break;
    }
    parts.push(html.slice(index, open));
    if (html.startsWith("<!--", open)) {
      const end = html.indexOf("-->", open + 4);
      if (end === -1) break; // an unterminated comment hides the rest
      parts.push(" ");
      index = end + 3;
      continue;
    }
    const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(open, open + 64));
    if (!tag && !/^<[!?]/.test(html.slice(open, open + 2))) {
      parts.push("<"); // a literal "<" in the text
      index = open + 1;
      continue;
    }
    const end = tagEnd(html, open + 1);
    if (end === -1) break; // an unterminated tag: drop the rest
    index = end + 1;
    if (!tag) continue; // <!DOCTYPE …>, <?xml …?>
    const name = tag[2].toLowerCase();
    const closing = tag[1] === "/";
    if (!closing && (hidden.has(name) || name === "title")) {
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = index;
      const found = close.exec(html);
      if (!found) break; // an unterminated script or style hides the rest
      index = close.lastIndex;
      parts.push(" ");
    } else if (name === "li" && !closing) parts.push("\n- ");
    else if (blocks.has(name)) parts.push("\n");
    else if ((name === "td" || name === "th") && closing) parts.push(" ");
  }
  const text = decodeEntities(parts.join(""))
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: decodeEntities(findTitle(html)).replace(/\s+/g, " ").trim(), text };
}

/** The text of the first <title> element (one forward scan). */
function findTitle(html: string): string {
  const open = /<title\b/gi.exec(html);
  if (!open) return "";
  const end = tagEnd(html, open.index + 1);
  if (end === -1) return "";
  const close = /<\/title\s*>/gi;
  close.lastIndex = end + 1;
  const found = close.exec(html);
  return html.slice(end + 1, found ? found.index : Math.min(html.length, end + 1 + 1000));
}

/** The index of the `>` closing a tag that starts before `from`, skipping quoted values. */
function tagEnd(html: string, from: number): number {
  let index = from;
  while (index < html.length) {
    const char = html[index];
    if (char === ">") return index;
    if (char === '"' || char === "'") {
      const close = html.indexOf(char, index + 1);
      if (close === -1) return html.indexOf(">", index + 1);
      index = close + 1;
    } else index++;
  }
  return -1;
}
