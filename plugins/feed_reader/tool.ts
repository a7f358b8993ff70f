/** feed_reader: headlines from an RSS feed. May connect to hnrss.org:443 only (see manifest). */
import type { PluginArguments } from "../sdk.ts";
import { parseHeadlines } from "./rss.ts";

/** The newest headlines of a feed, one "title — link" per line. */
export async function latest_headlines(args: PluginArguments): Promise<string> {
  const url = typeof args.feed_url === "string" ? args.feed_url : "https://hnrss.org/frontpage";
  const limit = typeof args.limit === "number" ? Math.min(Math.max(1, args.limit), 50) : 10;
  const response = await fetch(url, { signal: AbortSignal.timeout(8000) });
  if (!response.ok) throw new Error(`the feed answered HTTP ${response.status}`);
  const headlines = parseHeadlines(await response.text()).slice(0, limit);
  if (!headlines.length) return "The feed has no items.";
  return headlines.map((item) => `${item.title} — ${item.link}`).join("\n");
}
