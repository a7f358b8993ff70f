/** A tiny RSS item parser (titles and links), enough for headline feeds. */

/** One feed item. */
export interface Headline {
  title: string;
  link: string;
}

function text(item: string, tag: string): string {
  const match = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(item);
  const raw = (match?.[1] ?? "").replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, "$1").trim();
  return raw.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/** The items of an RSS document, in feed order. */
export function parseHeadlines(xml: string): Headline[] {
  return [...xml.matchAll(/<item[\s>][\s\S]*?<\/item>/g)].map((match) => ({
    title: text(match[0], "title"),
    link: text(match[0], "link"),
  }));
}
