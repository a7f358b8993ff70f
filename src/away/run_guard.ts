/**
 * The run guard: call by call, whether a side effect may happen now, by the flow rule
 * (`flow_rule.ts`) over the run's labels (`run_labels.ts`: what it read). A changing or sending
 * call of a run that read untrusted text runs when every part of it is derived from trusted text
 * or a standing grant matches; a sending call of a run that read private data runs only where a
 * grant lets private data go. Otherwise a person in chat is asked inline, and a run without a
 * person stores the call as a pending approval and goes on without it (once per place for private
 * data: later sends of the run to the same place are refused without asking again). A tool's own
 * question ("write outside the writable folders?") is answered the same way: by a matching grant,
 * by the person, or deferred to a pending approval. A question about a self-contained action (a
 * browser submission: the page, its fields, the control) is matched against grants with the
 * action's arguments, and a pending approval stores and runs that action, with its summary and
 * screenshot.
 */
import type { ApprovalRequests, GrantCheck, StandingGrant } from "./approval_ports.ts";
import type { AgentRequest, RunGuard as GuardPort, RunGuards } from "../core/agent_types.ts";
import {
  type ChatMessage,
  parseJson,
  type ReadSources,
  type ToolCall,
} from "../core/chat_model.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import {
  type ConfirmAction,
  type ConversationKind,
  type Destinations,
  effectOf,
  refused,
  type ResultLabel,
  type Tool,
  type ToolResult,
} from "../core/tool.ts";
import { RunLabels } from "./run_labels.ts";
import { type TrustedPlaces, trustedPlaces, type UnderivedPart } from "./argument_provenance.ts";
import { originsNamedIn } from "../core/origins.ts";
import { checkFlow, destinationsOf } from "./flow_rule.ts";
import type { ToolExecution, ToolGate, ToolRegistry } from "../core/tool_registry.ts";

/**
 * The longest call (its arguments as the model wrote them) a person is asked about inline: the
 * question shows the whole call, so a longer one is refused without asking, never shown cut.
 */
export const maxAskedCallChars = 8_000;

/** What every run's guard shares (each read when a run starts). */
export interface RunGuardParts {
  /** Standing grants: calls they match need no yes (absent: none). */
  grants?: GrantCheck;
  /**
   * Where a run without a person sends actions that need a yes (pending approvals); absent:
   * such actions are refused, as in `radar eval`.
   */
  approvals?: ApprovalRequests;
  /** Trusted text besides the user's own words (config: watched folders, writable roots…). */
  trustedContext?: () => readonly string[];
  /** The home folder (`~` in paths of arguments and trusted text). */
  home?: () => string;
}

/** What the guard of one run works with. */
interface RunGuardOptions {
  labels: RunLabels;
  home: string;
  kind: ConversationKind;
  conversationId?: number;
  /** Standing grants (absent: none). */
  grants?: GrantCheck;
  /** A person answering now (interactive chat). */
  person?: (question: string) => Promise<boolean>;
  /** Pending approvals for a run without a person (absent: such calls are refused). */
  approvals?: ApprovalRequests;
  /** The run's outbox: a re-delivered run finds its earlier request instead of asking twice. */
  sideEffects?: SideEffectLog;
}

/** The call in progress. */
interface CurrentCall {
  call: ToolCall;
  tool?: Tool;
  /** Its arguments as the gate saw them. */
  args?: Record<string, unknown>;
  grant?: StandingGrant;
  /** A person said yes to this exact call. */
  approved?: boolean;
  /** Parts not derived from trusted text, and where private data would go uncovered. */
  underived: UnderivedPart[];
  uncovered: Destinations;
  /** Why the flow rule held it (no values). */
  reasons: string[];
  /** The guard answered instead of the tool (its words are Radar's, not data). */
  held?: boolean;
  /** Questions the tool asked that nobody could answer now. */
  deferred: string[];
  /** The self-contained action a deferred question was about, and its picture. */
  action?: ConfirmAction;
  screenshot?: Uint8Array;
}

/** The guard of one run (calls run one at a time). */
export class RunGuard implements GuardPort {
  #current?: CurrentCall;
  #places?: TrustedPlaces;
  /** Places this run already asked to send private data to, and the approval that asks. */
  readonly #askedFor = new Map<string, number>();
  /** The call that just settled was answered by the guard, not run. */
  #settledHeld = false;
  constructor(private readonly options: RunGuardOptions) {}

  /** What the run has read. */
  get labels(): RunLabels {
    return this.options.labels;
  }

  /**
   * The `confirm` tools get: yes when a grant matches or the person approved this call, else the
   * person is asked, else (a run without a person) the question becomes part of a pending
   * approval and the answer now is no. A question about a self-contained action (a browser
   * submission: what it sends and where) is answered only by a grant matching that action or by
   * the person shown it: a grant or yes for the call that led to it (a click) never saw it.
   * Undefined when nobody could ever answer.
   */
  get confirm(): ((question: string, action?: ConfirmAction) => Promise<boolean>) | undefined {
    const { person, approvals } = this.options;
    if (!person && !approvals) return undefined;
    return async (question, action) => {
      const current = this.#current;
      if (action) {
        if (current?.tool && this.#grantsAction(current.tool, action.arguments)) return true;
      } else if (current?.grant || current?.approved) return true;
      if (person) return await person(question);
      if (!current) return false;
      if (action) {
        current.action = action;
        current.screenshot = await action.screenshot?.().catch(() => undefined);
      }
      current.deferred.push(action?.why ?? question);
      return false;
    };
  }

  /**
   * Whether a standing grant answers yes to a self-contained action; in a run that read private
   * data, only one that lets private data go to every place the action sends to.
   */
  #grantsAction(tool: Tool, args: Record<string, unknown>): boolean {
    const { grants, labels, conversationId } = this.options;
    if (!grants) return false;
    if (!labels.private) return grants(tool, args) !== undefined;
    const destinations = destinationsOf(tool, args, conversationId);
    return destinations !== "anywhere" && grants(tool, args, destinations) !== undefined;
  }

  /**
   * Whether the call in progress may also send to `origins` (a redirect to another origin): yes in
   * a run that read nothing private, else only where a grant matching the call lets private data
   * go. A person's yes was to the call as shown, not to another place.
   */
  readonly mayAlsoSendTo = (origins: readonly string[]): boolean => {
    const { labels, grants } = this.options;
    if (!labels.private) return true;
    const current = this.#current;
    if (!current?.tool || !current.args) return false;
    return !!grants?.(current.tool, current.args, origins);
  };

  /** Starts a call. */
  begin(call: ToolCall): void {
    this.#current = { call, underived: [], uncovered: [], reasons: [], deferred: [] };
  }

  /** The gate (after the hooks' gates): the flow rule, grants, the person or a pending approval. */
  readonly gate: ToolGate = async ({ tool, arguments: args }) => {
    const current = this.#current;
    if (!current) return undefined;
    current.tool = tool;
    const values = isRecord(args) ? args : {};
    current.args = values;
    const { labels, grants } = this.options;
    this.#places ??= trustedPlaces(labels.trusted, this.options.home);
    const verdict = checkFlow({
      tool,
      args: values,
      effect: effectOf(tool, values),
      labels,
      places: this.#places,
      grants,
      conversationId: this.options.conversationId,
    });
    if (!verdict.held) {
      current.grant = verdict.grant as StandingGrant | undefined;
      return undefined;
    }
    Object.assign(current, {
      underived: verdict.underived,
      uncovered: verdict.uncovered,
      reasons: verdict.reasons,
      held: true,
    });
    const { person, approvals, kind } = this.options;
    if (person) {
      // A person approves exactly what they saw: the whole call, or nothing is asked.
      const shown = current.call.arguments.trim() || "{}";
      if (shown.length > maxAskedCallChars) {
        return refused(
          `Not done: this ${tool.name} call is too long to show the user whole ` +
            `(${shown.length} characters), so nobody was asked. Do it in smaller steps the user ` +
            "can read.",
        );
      }
      if (await person(this.#question(tool, shown, verdict.reasons))) {
        current.approved = true;
        current.held = false;
        return undefined;
      }
      return refused(
        `The user declined this ${tool.name} call. Do not retry it; ask what to do instead.`,
      );
    }
    const asked = this.#alreadyAsked(verdict.uncovered);
    if (asked !== undefined) {
      return refused(
        `Not done: approval #${asked} already asks the user about sending this run's private ` +
          "data there; this run does not ask again. Do not retry or work around it.",
      );
    }
    if (approvals) return await this.#defer(current, verdict.reasons);
    return refused(
      `Not done: ${verdict.reasons.join("; ")}. This run read text from outside ` +
        `(${labels.untrustedSources.join(", ")}), and nobody can say yes in a ` +
        `${kind} run. Tell the user what you wanted to do instead.`,
    );
  };

  /**
   * Ends a call: a question the tool asked that nobody could answer makes the call a pending
   * approval (the result says so). Returns the execution the model and the store see.
   */
  async settle(execution: ToolExecution): Promise<ToolExecution> {
    const current = this.#current;
    this.#current = undefined;
    this.#settledHeld = !!current?.held;
    if (!current?.deferred.length || !this.options.approvals) return execution;
    this.#settledHeld = true;
    const reasons = [...current.reasons, ...current.deferred];
    return { ...execution, result: await this.#defer(current, reasons) };
  }

  /**
   * Records what a tool returned as read: with the label a built-in tool reported for this result
   * (a page from a private address), else the one its tool declares for these arguments (a tool
   * the registry does not know: private).
   */
  read(
    tool: Tool | undefined,
    name: string,
    _text: string,
    args?: unknown,
    reported?: ResultLabel,
  ): void {
    if (this.#settledHeld) {
      // The guard's own answer ("Not done yet: … approval #3"): nothing was read.
      this.#settledHeld = false;
      return;
    }
    // Results carry a label only from Radar's own code (a built-in tool, a config rule's refusal).
    const label = reported ?? resultLabel(tool, args);
    this.options.labels.read(`tool ${name}`, label);
  }

  /** Records outside text the request itself holds (tool descriptions, plugin values, skills). */
  readRequest(parts: ReadonlyArray<{ source: string; label: ResultLabel }>): void {
    for (const part of parts) this.options.labels.read(part.source, part.label);
  }

  /** What the run has read so far (each assistant message is stored with it). */
  readSources(): ReadSources {
    return this.options.labels.sources;
  }

  /**
   * The approval that already asks about sending this run's private data to every one of
   * `uncovered` (a run sending its secret in pieces asks once), if there is one.
   */
  #alreadyAsked(uncovered: Destinations): number | undefined {
    const places = uncovered === "anywhere" ? ["anywhere"] : uncovered;
    const asked = places.map((place) => this.#askedFor.get(place));
    return asked.length && asked.every((id) => id !== undefined) ? asked[0] : undefined;
  }

  async #defer(current: CurrentCall, reasons: string[]): Promise<ToolResult> {
    const { call, action } = current;
    const { labels } = this.options;
    const argumentsText = action ? JSON.stringify(action.arguments) : call.arguments.trim() || "{}";
    const claim = this.options.sideEffects?.begin("approval", `${call.name} ${argumentsText}`);
    const { id, text } = await this.options.approvals!.request({
      tool: call.name,
      arguments: argumentsText,
      summary: action?.summary,
      screenshot: current.screenshot,
      conversationId: this.options.conversationId,
      kind: this.options.kind,
      reasons,
      tainted: current.underived,
      untrustedSources: labels.untrustedSources,
      privateSources: labels.privateSources,
      destinations: current.uncovered,
      namedDestinations: current.uncovered === "anywhere"
        ? []
        // Named by an address in them: `https://board.example.org/x` does not name
        // `https://board.example`.
        : current.uncovered.filter((origin) =>
          labels.trusted.some((text) => originsNamedIn(text).includes(origin))
        ),
      key: claim?.key,
    });
    if (claim?.state === "new") claim.done();
    const places = current.uncovered === "anywhere" ? ["anywhere"] : current.uncovered;
    for (const place of places) if (!this.#askedFor.has(place)) this.#askedFor.set(place, id);
    current.deferred = [];
    current.action = undefined;
    current.screenshot = undefined;
    return { ...refused(text), approvalId: id };
  }

  /** The inline question: why, and the whole call (never cut: see `maxAskedCallChars`). */
  #question(tool: Tool, shown: string, reasons: string[]): string {
    const sources = this.options.labels.untrustedSources.join(", ");
    return `This run read text from outside (${sources}), and a ${tool.name} call needs your yes:\n` +
      `  ${tool.name} ${shown}\n` +
      reasons.map((reason) => `  - ${reason}`).join("\n") + "\nAllow it?";
  }
}

/** The label of a tool's result for these arguments (see `Tool.results`). */
export function resultLabel(tool: Tool | undefined, args?: unknown): ResultLabel {
  if (!tool) return "private";
  const declared = tool.results;
  if (typeof declared === "function") {
    try {
      return declared(args);
    } catch {
      return "private";
    }
  }
  return declared ?? (tool.resultIsData === false ? "own_words" : "private");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The guard of each run (`AgentDependencies.guard`), over what every run shares. */
export function runGuards(parts: RunGuardParts): RunGuards {
  return (request, history, registry) => guardRun(parts, request, history, registry);
}

/**
 * The guard of one run: what it has read (trusted: the user's words, config places; untrusted:
 * tool results and marked blocks, history's included, and what the runs that wrote the replayed
 * assistant messages had read, even when that left the window), the grants, and who can say yes — the
 * person (a run with `confirm`), else pending approvals.
 */
function guardRun(
  parts: RunGuardParts,
  request: AgentRequest,
  history: readonly ChatMessage[],
  registry: ToolRegistry,
): RunGuard {
  const labels = new RunLabels();
  for (const text of parts.trustedContext?.() ?? []) labels.addTrusted(text);
  const guard = new RunGuard({
    labels,
    home: parts.home?.() ?? "/",
    kind: request.kind,
    conversationId: request.conversationId,
    grants: parts.grants,
    person: request.confirm,
    approvals: request.confirm ? undefined : parts.approvals,
    sideEffects: request.sideEffects,
  });
  const callArguments = new Map<string, string>();
  for (const message of history) {
    if (message.role === "user") labels.addMessage(message.content);
    // The model's earlier words may hold whatever the run that wrote them had read.
    if (message.role === "assistant" && message.readFrom) labels.readAgain(message.readFrom);
    for (const call of message.toolCalls ?? []) callArguments.set(call.id, call.arguments);
    if (message.role === "tool") {
      const name = message.toolName ?? "result";
      const text = message.toolCallId ? callArguments.get(message.toolCallId) : undefined;
      guard.read(registry.get(name), name, message.content, parseJson(text));
    }
  }
  labels.addMessage(request.userMessage);
  return guard;
}
