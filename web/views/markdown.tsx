/**
 * Model output as Markdown, rendered by npm markdown-it with every unsafe feature off: raw HTML
 * stays visible text (`html: false`), images are never loaded (a remote image would leak data to
 * its server; only their alt text is shown), links are kept only for http(s) and mailto URLs
 * (`validateLink`; anything else stays plain text) and open with rel=noopener noreferrer
 * nofollow. Headings start at h3 so a model's `#` never outranks the page title.
 */
// @ts-types="npm:@types/markdown-it@14.1.2"
import MarkdownIt from "markdown-it";
import { raw } from "hono/html";

const safeProtocols = new Set(["http:", "https:", "mailto:"]);

/** The normalised URL when it is an http(s) or mailto link, else undefined. */
export function safeLinkUrl(rawUrl: string): string | undefined {
  const trimmed = rawUrl.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    return safeProtocols.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
markdown.validateLink = (url) => safeLinkUrl(url) !== undefined;

const rules = markdown.renderer.rules;
rules.image = (tokens, index) => {
  const alt = tokens[index].content || "no description";
  return `<span class="image-omitted">[image not loaded: ${markdown.utils.escapeHtml(alt)}]</span>`;
};
rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index];
  token.attrSet("rel", "noopener noreferrer nofollow");
  token.attrSet("target", "_blank");
  token.attrSet("title", token.attrGet("href") ?? "");
  return self.renderToken(tokens, index, options);
};
const shiftHeading: NonNullable<typeof rules.heading_open> = (
  tokens,
  index,
  options,
  _env,
  self,
) => {
  const level = Number(tokens[index].tag.slice(1));
  tokens[index].tag = `h${Math.min(6, level + 2)}`;
  return self.renderToken(tokens, index, options);
};
rules.heading_open = shiftHeading;
rules.heading_close = shiftHeading;

/** Renders model Markdown inside `<div class="markdown">`. */
export function Markdown(props: { text: string }) {
  return <div class="markdown">{raw(markdown.render(props.text))}</div>;
}
