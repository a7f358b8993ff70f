/** What a tool is to the registry and the loop: name, description, JSON Schema, parse and run. */
import type { SideEffectLog } from "./side_effects.ts";
import type { EffectDeclaration } from "./tool_effect.ts";

/** How a tool call ended, as recorded in the audit trail. */
export type ToolOutcome = "ok" | "error" | "refused" | "timeout";

/** A tool result with its outcome. Tools may also return a plain string (outcome ok). */
export interface ToolResult {
  text: string;
  outcome: ToolOutcome;
  /** Tool names to offer from the next model round on (what `find_tools` found). */
  offerTools?: string[];
  /** The pending approval the call became (it waits for the user's yes). */
  approvalId?: number;
}

/** What a tool's run function returns. */
export type ToolOutput = string | ToolResult;

/** The kind of conversation a run belongs to. */
export type ConversationKind = "chat" | "ask" | "heartbeat" | "task";

/** What a tool knows about the run it is part of. */
export interface ToolContext {
  conversationId?: number;
  kind: ConversationKind;
  /** True only when a person can answer a confirmation right now (interactive chat). */
  interactive: boolean;
  /** Asks the person a yes/no question; absent when nobody can answer. */
  confirm?: (question: string) => Promise<boolean>;
  signal: AbortSignal;
  /** The run's outbox (daemon runs): actions that must not repeat after a crash claim a key. */
  sideEffects?: SideEffectLog;
  /** Set when the user's yes to a pending approval runs this call (the journal records it). */
  approvalId?: number;
}

/** Result of validating a tool's arguments. */
export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A tool as the registry sees it, whatever its origin. */
export interface Tool {
  name: string;
  /** One short line: the model pays for every token on every call. */
  description: string;
  /** JSON Schema of the arguments object, as compact as possible. */
  parameters: Record<string, unknown>;
  /** "builtin" or "plugin:NAME". */
  source: string;
  /** Offered on every request, whatever the message. */
  alwaysOn?: boolean;
  /**
   * Offered only when a request needs it: the message matches its name or keywords, a loaded
   * skill lists it in `allowed-tools`, `find_tools` finds it, or the conversation used it. Keeps
   * specialised tools (comic_info) out of every other request's prompt.
   */
  onDemand?: boolean;
  /**
   * Reads local state only: changes nothing and sends nothing anywhere. An unapproved task the
   * model created runs with these tools (and `notify`) only.
   */
  readOnly?: boolean;
  /**
   * What a call does to the world (see `tool_effect.ts`). Absent: `none` for a read-only tool,
   * else `sends_out` (the strictest).
   */
  effect?: EffectDeclaration;
  /** Arguments that name files or folders (grants match them as paths, taint checks their names). */
  pathArguments?: readonly string[];
  /**
   * False when the result is Radar's own words (a confirmation such as "Saved fact #3"): it does
   * not count as untrusted text the run has read. Default: a result is data from outside.
   */
  resultIsData?: boolean;
  /** Extra words that make the tool relevant to a message. */
  keywords?: string[];
  parse(args: unknown): ParseResult;
  run(args: unknown, context: ToolContext): Promise<ToolOutput>;
}

/** Marks a result as a refusal (a safety rule said no). */
export function refused(text: string): ToolResult {
  return { text, outcome: "refused" };
}

/** Marks a result as a failure the model can act on. */
export function failed(text: string): ToolResult {
  return { text, outcome: "error" };
}

/** Marks a result as a timeout. */
export function timedOut(text: string): ToolResult {
  return { text, outcome: "timeout" };
}

/** Normalises a tool output to a result. */
export function toResult(output: ToolOutput): ToolResult {
  return typeof output === "string" ? { text: output, outcome: "ok" } : output;
}
