// deno-lint-ignore-file jsx-key -- server-rendered HTML: keys are a client-side diffing concern
/**
 * A small, safe Markdown renderer for model output. It builds JSX nodes, never HTML strings, so
 * every piece of text is escaped by construction; raw HTML in the input stays visible text.
 * Links are kept only for http(s) and mailto URLs (rel=noopener noreferrer nofollow); images
 * are never loaded (a remote image would leak data to its server), only their alt text shown.
 */
import type { Child } from "hono/jsx";

const safeProtocols = new Set(["http:", "https:", "mailto:"]);

/** The normalised URL when it is an http(s) or mailto link, else undefined. */
export function safeLinkUrl(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    return safeProtocols.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function Link(props: { href: string; children: Child }) {
  return (
    <a href={props.href} rel="noopener noreferrer nofollow" target="_blank" title={props.href}>
      {props.children}
    </a>
  );
}

type InlineRule = {
  pattern: RegExp;
  render: (match: RegExpExecArray) => Child;
};

const inlineRules: InlineRule[] = [
  { pattern: /`([^`\n]+)`/, render: (m) => <code>{m[1]}</code> },
  {
    pattern: /!\[([^\]\n]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/,
    render: (m) => <span class="image-omitted">[image not loaded: {m[1] || "no description"}]
    </span>,
  },
  {
    pattern: /\[([^\]\n]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/,
    render: (m) => {
      const href = safeLinkUrl(m[2]);
      return href ? <Link href={href}>{renderInline(m[1])}</Link> : <>{renderInline(m[1])}</>;
    },
  },
  {
    pattern: /\bhttps?:\/\/[^\s<>()\]]+[^\s<>()\].,;:!?'"]/,
    render: (m) => {
      const href = safeLinkUrl(m[0]);
      return href ? <Link href={href}>{m[0]}</Link> : m[0];
    },
  },
  { pattern: /\*\*([^*\n]+)\*\*/, render: (m) => <strong>{renderInline(m[1])}</strong> },
  { pattern: /__([^_\n]+)__/, render: (m) => <strong>{renderInline(m[1])}</strong> },
  { pattern: /~~([^~\n]+)~~/, render: (m) => <del>{renderInline(m[1])}</del> },
  { pattern: /\*([^*\n]+)\*/, render: (m) => <em>{renderInline(m[1])}</em> },
  {
    pattern: /(?<![\p{L}\p{N}])_([^_\n]+)_(?![\p{L}\p{N}])/u,
    render: (m) => <em>{renderInline(m[1])}</em>,
  },
];

/** Renders inline Markdown (code, links, emphasis) as escaped JSX children. */
export function renderInline(text: string): Child[] {
  const out: Child[] = [];
  let rest = text;
  while (rest) {
    let best: { index: number; match: RegExpExecArray; rule: InlineRule } | undefined;
    for (const rule of inlineRules) {
      const match = rule.pattern.exec(rest);
      if (match && (!best || match.index < best.index)) best = { index: match.index, match, rule };
    }
    if (!best) {
      out.push(rest);
      break;
    }
    if (best.index > 0) out.push(rest.slice(0, best.index));
    out.push(best.rule.render(best.match));
    rest = rest.slice(best.index + best.match[0].length);
  }
  return out;
}

function lines(children: string[]): Child[] {
  return children.flatMap((line, index) =>
    index ? [<br />, ...renderInline(line)] : renderInline(line)
  );
}

const listItem = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;

/** Renders Markdown text as escaped JSX: paragraphs, headings, lists, quotes, code blocks. */
export function Markdown(props: { text: string }) {
  const source = props.text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Child[] = [];
  let index = 0;
  while (index < source.length) {
    const line = source[index];
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      index++;
      while (index < source.length && !source[index].trimStart().startsWith(fence[1])) {
        body.push(source[index++]);
      }
      index++;
      blocks.push(<pre><code>{body.join("\n")}</code></pre>);
      continue;
    }
    if (!line.trim()) {
      index++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const content = renderInline(heading[2].replace(/\s+#+\s*$/, ""));
      blocks.push(
        heading[1].length === 1
          ? <h3>{content}</h3>
          : heading[1].length === 2
          ? <h4>{content}</h4>
          : <h5>{content}</h5>,
      );
      index++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push(<hr />);
      index++;
      continue;
    }
    if (line.startsWith(">")) {
      const quoted: string[] = [];
      while (index < source.length && source[index].startsWith(">")) {
        quoted.push(source[index++].replace(/^>\s?/, ""));
      }
      blocks.push(<blockquote>{lines(quoted)}</blockquote>);
      continue;
    }
    const item = listItem.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]);
      const items: string[] = [];
      while (index < source.length) {
        const next = listItem.exec(source[index]);
        if (next) items.push(next[2]);
        else if (source[index].trim() && /^\s+/.test(source[index]) && items.length) {
          items[items.length - 1] += ` ${source[index].trim()}`;
        } else break;
        index++;
      }
      const children = items.map((text) => <li>{renderInline(text)}</li>);
      blocks.push(ordered ? <ol>{children}</ol> : <ul>{children}</ul>);
      continue;
    }
    const paragraph: string[] = [];
    while (
      index < source.length && source[index].trim() &&
      !/^\s*(```|~~~|#{1,6}\s|>)/.test(source[index]) &&
      !listItem.test(source[index])
    ) {
      paragraph.push(source[index++]);
    }
    if (!paragraph.length) paragraph.push(source[index++]);
    blocks.push(<p>{lines(paragraph)}</p>);
  }
  return <div class="markdown">{blocks}</div>;
}
