/**
 * An MCP server's tools as Radar tools: `mcp_<server>__<tool>` names, source `mcp:<server>`,
 * one-line descriptions, the server's JSON Schema passed through with long descriptions cut and
 * a size cap, results as capped text (the agent loop wraps every tool result as untrusted data).
 */
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import {
  type Destinations,
  failed,
  refused,
  type ResultLabel,
  timedOut,
  type Tool,
  type ToolOutput,
} from "../core/tool.ts";
import { textForModel } from "../core/untrusted_text.ts";
import type { McpServerConnection } from "./server_connection.ts";

/** Limits applied to one server's tools. */
interface McpToolLimits {
  maxResultChars: number;
  maxSchemaChars: number;
  /**
   * Why a call to this (server-side) tool is refused now, if it is: a tool that changed since
   * the server was approved runs only after `radar mcp approve`.
   */
  refusal?: (tool: string) => string | undefined;
  /** Where its calls send (see `McpServerConnection`'s server): absent, anywhere. */
  destinations?: Destinations;
  /** The label of its results: private unless the config declares them public. */
  results?: ResultLabel;
}

const maxDescriptionChars = 160;
const maxPropertyDescriptionChars = 80;
const maxNameLength = 64;

/**
 * The registry name of a server's tool: `mcp_<server>__<tool>`, [A-Za-z0-9_] only. A server name
 * holds no `__` and does not end in `_` (`mcpServerNamePattern`), so the first `__` ends it: the
 * tools of `notes` and `notes_search` never share a name.
 */
export function mcpToolName(server: string, tool: string): string {
  return `mcp_${server}__${tool.replace(/[^A-Za-z0-9_]/g, "_")}`.slice(0, maxNameLength);
}

/** Radar tools for a server's tool list (duplicate names after cleaning keep the first). */
export function mcpTools(
  server: string,
  listed: readonly McpTool[],
  connection: McpServerConnection,
  limits: McpToolLimits,
): Tool[] {
  const seen = new Set<string>();
  const tools: Tool[] = [];
  for (const entry of listed) {
    const name = mcpToolName(server, entry.name);
    if (seen.has(name)) continue;
    seen.add(name);
    tools.push({
      name,
      description: oneLine(entry.description || entry.title || entry.name, maxDescriptionChars),
      parameters: compactSchema(entry.inputSchema, limits.maxSchemaChars),
      source: `mcp:${server}`,
      readOnly: false,
      // A server's own hints (readOnlyHint) are its word, not a boundary: the strictest effect.
      effect: "sends_out",
      destinations: () => limits.destinations ?? "anywhere",
      results: limits.results ?? "private",
      keywords: [server, "mcp"],
      parse: (args) =>
        args !== null && typeof args === "object" && !Array.isArray(args)
          ? { ok: true, value: args }
          : { ok: false, error: "expected an object of arguments" },
      run: async (args, context): Promise<ToolOutput> => {
        try {
          // Started first: a start lists the tools, and a changed tool is refused below.
          if (limits.refusal) await connection.ready();
          const refusal = limits.refusal?.(entry.name);
          if (refusal) return refused(refusal);
          const result = await connection.callTool(
            entry.name,
            args as Record<string, unknown>,
            context.signal,
          );
          const text = resultText(result, limits.maxResultChars);
          return result.isError ? failed(text) : text;
        } catch (error) {
          const message = oneLine((error as Error).message ?? String(error), 600);
          return /timed? ?out/i.test(message)
            ? timedOut(`MCP server ${server} timed out and was stopped (${message})`)
            : failed(`MCP server ${server} failed: ${message}`);
        }
      },
    });
  }
  return tools;
}

/** One line, control characters removed, cut to `max` characters. */
function oneLine(text: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const flat = textForModel(text).replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The schema with `$schema` dropped, descriptions cut, and a free-form object past the cap. */
export function compactSchema(schema: unknown, maxChars: number): Record<string, unknown> {
  const fallback = { type: "object", additionalProperties: true };
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return fallback;
  const compact = strip(schema) as Record<string, unknown>;
  if (compact.type !== "object") return fallback;
  return JSON.stringify(compact).length > maxChars ? fallback : compact;
}

function strip(value: unknown, depth = 0): unknown {
  if (depth > 12) return {};
  if (Array.isArray(value)) return value.map((item) => strip(item, depth + 1));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$schema" || key === "title" || key === "examples") continue;
    if (key === "description" && typeof inner === "string") {
      out[key] = oneLine(inner, maxPropertyDescriptionChars);
    } else out[key] = strip(inner, depth + 1);
  }
  return out;
}

/** The result's text parts (other kinds named, not passed), cut to `max` characters. */
export function resultText(result: CallToolResult, max: number): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === "text") parts.push(item.text);
    else if (item.type === "resource" && "text" in item.resource) {
      parts.push(String(item.resource.text));
    } else parts.push(`[${item.type} omitted]`);
  }
  if (!parts.length && result.structuredContent) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  // deno-lint-ignore no-control-regex
  const text = parts.join("\n").replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
  return text.length > max
    ? `${text.slice(0, max)}\n[cut: the result had ${text.length} characters]`
    : text || "(no output)";
}
