/**
 * The HTML query child: loads node-html-parser, drops every permission, reads one request from
 * stdin (a JSON line with the queries, then the page up to EOF), writes one JSON result line and
 * exits. Started by `queryHtml` as `deno run … html_query_process.ts` or as the compiled binary
 * with the hidden `--radar-html-query` argument (main.ts). Hostile markup makes every HTML parser
 * and selector engine superlinear (node-html-parser: 400 KB of `<div>` 157 s), and a worker
 * cannot be stopped mid-parse, so the parse runs here and the parent kills it at the deadline.
 */
import {
  type HtmlField,
  type HtmlMatch,
  type HtmlQuery,
  type HtmlQueryResult,
  maxAnswerChars,
  maxMatches,
} from "./html_query_protocol.ts";
import { firstLine } from "../../core/errors.ts";

const permissionNames = ["read", "write", "net", "env", "run", "sys", "ffi", "import"] as const;

/** The parts of node-html-parser's elements the queries read. */
interface Element {
  querySelectorAll(selector: string): Element[];
  querySelector(selector: string): Element | null;
  readonly outerHTML: string;
  readonly text: string;
  getAttribute(name: string): string | undefined;
}

/** Runs one request over stdin/stdout (the child's whole life). */
export async function runHtmlQueryProcess(): Promise<void> {
  let result: HtmlQueryResult;
  try {
    // A literal import: embedded by `deno compile`, loaded only in this child.
    const { parse } = await import("node-html-parser");
    for (const name of permissionNames) await Deno.permissions.revoke({ name });
    const request = await new Response(Deno.stdin.readable).text();
    const newline = request.indexOf("\n");
    if (newline < 0) throw new Error("no request line");
    const queries = readQueries(request.slice(0, newline));
    const root = parse(request.slice(newline + 1), {
      comment: false,
      blockTextElements: { script: false, style: false },
    }) as unknown as Element;
    result = answer(root, queries);
  } catch (error) {
    result = { status: "failed", message: firstLine(error, 300) };
  }
  const writer = Deno.stdout.writable.getWriter();
  await writer.write(new TextEncoder().encode(`${JSON.stringify(result)}\n`));
  await writer.close();
}

function readQueries(line: string): HtmlQuery[] {
  const value = JSON.parse(line)?.queries;
  if (!Array.isArray(value) || !value.every((query) => typeof query?.select === "string")) {
    throw new Error("bad request line");
  }
  return value;
}

/** Every query's matches, within `maxAnswerChars` characters in all. */
function answer(root: Element, queries: HtmlQuery[]): HtmlQueryResult {
  let room = maxAnswerChars;
  const matches: HtmlMatch[][] = [];
  for (const query of queries) {
    let elements: Element[];
    try {
      elements = root.querySelectorAll(query.select);
    } catch (error) {
      if (error instanceof RangeError) throw error; // the stack, not the selector
      return {
        status: "invalid",
        message: `invalid CSS selector ${query.select}: ${firstLine(error, 300)}`,
      };
    }
    const found: HtmlMatch[] = [];
    for (const element of elements.slice(0, Math.min(query.limit ?? maxMatches, maxMatches))) {
      const match: HtmlMatch = {};
      for (const [name, field] of Object.entries(query.fields)) {
        let value: string | null;
        try {
          value = read(element, field);
        } catch (error) {
          if (error instanceof RangeError) throw error;
          return {
            status: "invalid",
            message: `invalid CSS selector ${field.within ?? query.select}: ${
              firstLine(error, 300)
            }`,
          };
        }
        if (value !== null && value.length > room) {
          match[name] = value.slice(0, room);
          found.push(match);
          return { status: "ok", matches: [...matches, found], cut: true };
        }
        match[name] = value;
        room -= value?.length ?? 0;
      }
      found.push(match);
    }
    matches.push(found);
  }
  return { status: "ok", matches, cut: false };
}

function read(element: Element, field: HtmlField): string | null {
  const target = field.within ? element.querySelector(field.within) : element;
  if (!target) return null;
  if (field.read === "html") return target.outerHTML;
  if (field.read === "text") return target.text;
  return target.getAttribute(field.read.attribute) ?? null;
}

if (import.meta.main) await runHtmlQueryProcess();
