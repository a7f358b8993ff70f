/** What a tool is to the registry and the loop: name, description, JSON Schema, parse and run. */
import type { ToolSpec } from "./chat_model.ts";
import type { SideEffectLog } from "./side_effects.ts";

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
  /**
   * The label of this result as the (built-in) tool knows it from what it did: a page fetched
   * from a private address is private. Absent: the tool's declared `results`.
   */
  label?: ResultLabel;
}

/** What a tool's run function returns. */
export type ToolOutput = string | ToolResult;

/** The kind of conversation a run belongs to. */
export type ConversationKind = "chat" | "ask" | "heartbeat" | "task";

/** A command that runs tools itself, outside any conversation (the journal names it). */
export type CommandOrigin = "library scan";

/**
 * The self-contained action a question is about, when the call's own arguments would not do it
 * again (a browser click that submits is stored as one `submit` with the page, fields and
 * control): a standing grant is matched against these arguments, and a pending approval runs
 * them.
 */
export interface ConfirmAction {
  arguments: Record<string, unknown>;
  /** What it would do, as people read it (passwords masked): shown instead of the arguments. */
  summary?: string;
  /** Why it needs a yes, in a few words ("a form submission needs your yes"). */
  why?: string;
  /** A picture of what it acts on (the page as filled), for a pending approval. */
  screenshot?: () => Promise<Uint8Array>;
}

/** What a tool knows about the run it is part of. */
export interface ToolContext {
  conversationId?: number;
  kind: ConversationKind;
  /** True only when a person can answer a confirmation right now (interactive chat). */
  interactive: boolean;
  /** Asks the person a yes/no question; absent when nobody can answer. */
  confirm?: (question: string, action?: ConfirmAction) => Promise<boolean>;
  signal: AbortSignal;
  /**
   * Runs `cleanup` when the run ends, however it ends (a browser the run started is killed);
   * absent outside a run (a call an approval runs): the tool cleans up after the call itself.
   */
  atRunEnd?: (cleanup: () => Promise<void>) => void;
  /** The run's outbox (daemon runs): actions that must not repeat after a crash claim a key. */
  sideEffects?: SideEffectLog;
  /** Set when the user's yes to a pending approval runs this call (the journal records it). */
  approvalId?: number;
  /** The command that made this call outside any conversation (recorded instead of `kind`). */
  origin?: CommandOrigin;
  /**
   * Whether the call in progress may also send to these origins, besides the places it declared
   * (`Tool.destinations`): a redirect to another origin is a send there. No when the run read
   * private data and no grant matching the call lets private data go there. Absent: yes.
   */
  mayAlsoSendTo?: (origins: readonly string[]) => boolean;
}

/**
 * What a tool's result is to the run's labels (`src/away/run_labels.ts`): Radar's own words (a
 * confirmation such as "Saved fact #3": no label), public (the web: untrusted), or private (files,
 * mail, calendars, memory, money, command output, MCP and plugin results: untrusted and private).
 */
export type ResultLabel = "own_words" | "public" | "private";

/**
 * Where a call that sends data off the machine sends it: origins (`https://api.example`, compared
 * exactly), an approved boundary (`mcp:NAME`, `plugin:NAME`), or `anywhere` when the tool cannot
 * tell (no grant covers that).
 */
export type Destinations = readonly string[] | "anywhere";

/** What a tool's grants cover beyond their patterns (see `Tool.grantScope`). */
export interface GrantScope {
  /**
   * False when a grant whose patterns matched still does not cover the call; `matches` applies
   * one of the grant's patterns to a value as grants do.
   */
  covers(
    patterns: Readonly<Record<string, string>>,
    args: Record<string, unknown>,
    matches: (pattern: string, value: string) => boolean,
  ): boolean;
  /** Where a grant with these patterns covers less than they seem to say, line by line. */
  limits(
    patterns: Readonly<Record<string, string>>,
    matches: (pattern: string, value: string) => boolean,
  ): string[];
}

/** Result of validating a tool's arguments. */
export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A tool as the registry sees it, whatever its origin: its spec for the model, and more. */
export interface Tool extends ToolSpec {
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
   * What a call does to the world (see `effectOf` below). Absent: `none` for a read-only tool,
   * else `sends_out` (the strictest).
   */
  effect?: EffectDeclaration;
  /**
   * The arguments "Always allow…" suggests patterns for (absent: every short one), which grants
   * may name even when the model is not offered them. The browser names action, url and target:
   * a grant is for a site's forms sending to a site, not for one selector.
   */
  grantArguments?: readonly string[];
  /**
   * What a grant asks of a call beyond its argument patterns, for what it leaves out (absent:
   * nothing; an argument a grant does not name may be anything). The browser's: a submission is
   * covered only with every request it sends known, and, when the grant names no `target`, only
   * while all of them go to the page's own origin.
   */
  grantScope?: GrantScope;
  /**
   * Names the tool itself gives to what it shows (the browser's `f1`, `b2`, `l3` for a page's
   * fields, buttons and links): an argument that is exactly one is the tool's own word, not text
   * from outside (what it points at is the tool's business: a submitting click still asks).
   */
  ownNames?: RegExp;
  /** Arguments that name files or folders (grants match them as paths; a path inside a folder the user named is theirs). */
  pathArguments?: readonly string[];
  /**
   * Arguments that are web addresses: a URL under an address the user named is theirs there (and
   * nowhere else: text that starts with an address is no address).
   */
  urlArguments?: readonly string[];
  /**
   * False when the result is Radar's own words (a confirmation such as "Saved fact #3"): it does
   * not count as untrusted text the run has read. Default: a result is data from outside.
   */
  resultIsData?: boolean;
  /** The label of a call's result (absent: `own_words` when `resultIsData` is false, else private). */
  results?: ResultLabel | ((args: unknown) => ResultLabel);
  /**
   * Where a `sends_out` call sends (absent: anywhere). A run that read private data sends only
   * where a grant covers private data, so a tool says exactly where it goes; `call` names the
   * conversation when the arguments alone do not say it (the browser's `fill` sends to the page
   * open there).
   */
  destinations?: (args: unknown, call?: { conversationId?: number }) => Destinations;
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

/** The effects, mildest first. */
export const toolEffects = ["none", "notifies_user", "local_write", "sends_out"] as const;

/**
 * What a tool call does to the world. Every tool declares it; the run guard
 * (`src/away/run_guard.ts`) decides from it which calls of a run that read untrusted text need
 * trusted arguments, a standing grant or a yes.
 *
 * - none: reads only (files, pages, memory); changes nothing and sends nothing anywhere;
 * - local_write: changes files or Radar's memory and schedule on this machine;
 * - sends_out: sends data off the machine or changes something elsewhere (a web request, a
 *   search, a calendar server, a mail server);
 * - notifies_user: pushes a message to the user's own notification topic (config chooses where).
 */
export type ToolEffect = typeof toolEffects[number];

/** A tool's effect: fixed, or decided by the call's arguments (calendar: list vs add). */
export type EffectDeclaration = ToolEffect | ((args: unknown) => ToolEffect);

/**
 * The effect of one call. A tool that declares none counts as `none` when it is read-only and
 * as `sends_out` otherwise (the strictest); a declaration that throws counts as `sends_out`.
 */
export function effectOf(tool: Pick<Tool, "effect" | "readOnly">, args: unknown): ToolEffect {
  const declared = tool.effect;
  if (typeof declared === "function") {
    try {
      const effect = declared(args);
      return toolEffects.includes(effect) ? effect : "sends_out";
    } catch {
      return "sends_out";
    }
  }
  return declared ?? (tool.readOnly ? "none" : "sends_out");
}

/** Effects that a run which read untrusted text may use only with trusted arguments or a grant. */
export function isGatedEffect(effect: ToolEffect): boolean {
  return effect === "local_write" || effect === "sends_out";
}
