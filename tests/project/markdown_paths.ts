/**
 * What a Markdown file points at, read with markdown-it (so code blocks and code spans are told
 * apart from links): its relative links, the paths its code spans name, and the anchors its
 * headings get on GitHub. Used by docs_paths_test.ts.
 */
// @ts-types="npm:@types/markdown-it@14.1.2"
import MarkdownIt from "markdown-it";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Something a Markdown file names, with the line it is on (1-based). */
export interface Mention {
  text: string;
  line: number;
}

type Token = ReturnType<MarkdownIt["parse"]>[number];

const parser = new MarkdownIt();

/**
 * Every inline token with the lines of its block (a table cell has none of its own: the lines of
 * its row, the nearest block before it).
 */
function inlineTokens(markdown: string): Array<{ token: Token; lines: [number, number] }> {
  let lines: [number, number] = [0, 1];
  return parser.parse(markdown, {}).flatMap((token) => {
    if (token.map) lines = token.map as [number, number];
    return token.type === "inline" ? [{ token, lines }] : [];
  });
}

/** The line (1-based) of `needle` within a block's lines, else the block's first line. */
function lineOf(source: string[], lines: [number, number], needle: string): number {
  for (let index = lines[0]; index < lines[1]; index++) {
    if (source[index]?.includes(needle)) return index + 1;
  }
  return lines[0] + 1;
}

/** Links to files in the repository (and `#anchor`s): no scheme, no `mailto:`. */
export function relativeLinks(markdown: string): Mention[] {
  const source = markdown.split("\n");
  return inlineTokens(markdown).flatMap(({ token, lines }) =>
    (token.children ?? []).flatMap((child) => {
      const target = child.type === "link_open"
        ? child.attrGet("href")
        : child.type === "image"
        ? child.attrGet("src")
        : null;
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
      return [{ text: target, line: lineOf(source, lines, `(${target}`) }];
    })
  );
}

/** The anchors GitHub gives the headings (lower case, punctuation dropped, spaces → `-`). */
export function headingAnchors(markdown: string): Set<string> {
  const tokens = parser.parse(markdown, {});
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.type !== "heading_open") return;
    const text = (tokens[index + 1].children ?? [])
      .filter((child) => child.type === "text" || child.type === "code_inline")
      .map((child) => child.content).join("");
    const slug = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  });
  return anchors;
}

/** Code spans, each with its line. */
export function codeSpans(markdown: string): Mention[] {
  const source = markdown.split("\n");
  return inlineTokens(markdown).flatMap(({ token, lines }) =>
    (token.children ?? []).filter((child) => child.type === "code_inline").map((child) => ({
      text: child.content,
      line: lineOf(source, lines, `\`${child.content}`),
    }))
  );
}

/**
 * Whether a path (relative to `root`) exists. A `*` in a segment matches any name (at least one
 * must exist); a segment with a `<placeholder>` ends the check at the folder before it.
 */
export function pathExists(root: string, path: string): boolean {
  const segments = path.split("/").filter(Boolean);
  let folders = [root];
  for (const segment of segments) {
    if (segment.includes("<")) break;
    if (!segment.includes("*")) {
      folders = folders.map((folder) => join(folder, segment)).filter((item) => existsSync(item));
    } else {
      const pattern = new RegExp(
        `^${segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`,
      );
      folders = folders.flatMap((folder) =>
        isFolder(folder)
          ? readdirSync(folder).filter((name) => pattern.test(name)).map((name) =>
            join(folder, name)
          )
          : []
      );
    }
    if (!folders.length) return false;
  }
  return path.endsWith("/") ? folders.some(isFolder) : folders.length > 0;
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
