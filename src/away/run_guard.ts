/**
 * The run guard: call by call, whether a side effect may happen now. A call whose effect changes
 * something (`local_write`, `sends_out`) in a run that has read untrusted text runs only when its
 * arguments come from trusted text or a standing grant matches it; otherwise a person in chat is
 * asked inline, and a run without a person stores it as a pending approval and goes on without
 * it. A tool's own question ("write outside the writable folders?") is answered the same way: by
 * a matching grant, by the person, or deferred to a pending approval. A question about a
 * self-contained action (a browser submission: the page, its fields, the control) is matched
 * against grants with the action's arguments, and a pending approval stores and runs that action,
 * with its summary and screenshot.
 */
import type { ApprovalRequests, GrantCheck, StandingGrant } from "./approval_ports.ts";
import type { AgentRequest, RunGuard as GuardPort, RunGuards } from "../core/agent_types.ts";
import type { ChatMessage, ToolCall } from "../core/messages.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import { describeFinding, RunProvenance, type TaintFinding } from "./taint.ts";
import {
  type ConfirmAction,
  type ConversationKind,
  refused,
  type Tool,
  type ToolResult,
} from "../core/tool.ts";
import { effectOf, isGatedEffect } from "../core/tool_effect.ts";
import type { ToolExecution, ToolGate, ToolRegistry } from "../core/tool_registry.ts";

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
}

/** What the guard of one run works with. */
interface RunGuardOptions {
  provenance: RunProvenance;
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
  grant?: StandingGrant;
  /** A person said yes to this exact call. */
  approved?: boolean;
  taint: TaintFinding[];
  /** Questions the tool asked that nobody could answer now. */
  deferred: string[];
  /** The self-contained action a deferred question was about, and its picture. */
  action?: ConfirmAction;
  screenshot?: Uint8Array;
}

/** The guard of one run (calls run one at a time). */
export class RunGuard implements GuardPort {
  #current?: CurrentCall;
  constructor(private readonly options: RunGuardOptions) {}

  /** The run's record of what it read. */
  get provenance(): RunProvenance {
    return this.options.provenance;
  }

  /**
   * The `confirm` tools get: yes when a grant matches or the person approved this call, else the
   * person is asked, else (a run without a person) the question becomes part of a pending
   * approval and the answer now is no. Undefined when nobody could ever answer.
   */
  get confirm(): ((question: string, action?: ConfirmAction) => Promise<boolean>) | undefined {
    const { person, approvals, grants } = this.options;
    if (!person && !approvals) return undefined;
    return async (question, action) => {
      const current = this.#current;
      if (current?.grant || current?.approved) return true;
      if (action && current?.tool) {
        current.grant = grants?.(current.tool, action.arguments);
        if (current.grant) return true;
      }
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

  /** Starts a call. */
  begin(call: ToolCall): void {
    this.#current = { call, taint: [], deferred: [] };
  }

  /** The gate (after the hooks' gates): taint, grants, the person or a pending approval. */
  readonly gate: ToolGate = async ({ tool, arguments: args }) => {
    const current = this.#current;
    if (!current) return undefined;
    current.tool = tool;
    const values = isRecord(args) ? args : {};
    const effect = effectOf(tool, values);
    if (!isGatedEffect(effect)) return undefined;
    current.grant = this.options.grants?.(tool, values);
    if (current.grant) return undefined;
    const taint = this.options.provenance.findTaint(values, {
      pathArguments: tool.pathArguments,
      destinations: effect === "sends_out",
    });
    if (!taint.length) return undefined;
    current.taint = taint;
    const reasons = taint.map(describeFinding);
    const { person, approvals, kind } = this.options;
    if (person) {
      if (await person(this.#question(tool, current.call, reasons))) {
        current.approved = true;
        return undefined;
      }
      return refused(
        `The user declined this ${tool.name} call. Do not retry it; ask what to do instead.`,
      );
    }
    if (approvals) return await this.#defer(current, reasons);
    return refused(
      `Not done: ${reasons.join("; ")}. This run read text from outside ` +
        `(${this.options.provenance.untrustedSources.join(", ")}), and nobody can say yes in a ` +
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
    if (!current?.deferred.length || !this.options.approvals) return execution;
    const reasons = [...current.taint.map(describeFinding), ...current.deferred];
    return { ...execution, result: await this.#defer(current, reasons) };
  }

  /** Records what a tool returned as untrusted text the run has read (unless it is Radar's own). */
  read(tool: Tool | undefined, name: string, text: string): void {
    if (tool?.resultIsData === false) return;
    this.options.provenance.addUntrusted(`tool ${name}`, text);
  }

  async #defer(current: CurrentCall, reasons: string[]): Promise<ToolResult> {
    const { call, action } = current;
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
      tainted: current.taint,
      untrustedSources: this.options.provenance.untrustedSources,
      key: claim?.key,
    });
    if (claim?.state === "new") claim.done();
    current.deferred = [];
    current.action = undefined;
    current.screenshot = undefined;
    return { ...refused(text), approvalId: id };
  }

  #question(tool: Tool, call: ToolCall, reasons: string[]): string {
    const sources = this.options.provenance.untrustedSources.join(", ");
    return `This run read text from outside (${sources}), and a ${tool.name} call uses it:\n` +
      `  ${tool.name} ${call.arguments.slice(0, 500)}\n` +
      reasons.map((reason) => `  - ${reason}`).join("\n") + "\nAllow it?";
  }
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
 * tool results and marked blocks, history's included), the grants, and who can say yes — the
 * person (a run with `confirm`), else pending approvals.
 */
function guardRun(
  parts: RunGuardParts,
  request: AgentRequest,
  history: readonly ChatMessage[],
  registry: ToolRegistry,
): RunGuard {
  const provenance = new RunProvenance();
  for (const text of parts.trustedContext?.() ?? []) provenance.addTrusted(text);
  const guard = new RunGuard({
    provenance,
    kind: request.kind,
    conversationId: request.conversationId,
    grants: parts.grants,
    person: request.confirm,
    approvals: request.confirm ? undefined : parts.approvals,
    sideEffects: request.sideEffects,
  });
  for (const message of history) {
    if (message.role === "user") provenance.addMessage(message.content);
    if (message.role === "tool") {
      const name = message.toolName ?? "result";
      guard.read(registry.get(name), name, message.content);
    }
  }
  provenance.addMessage(request.userMessage);
  return guard;
}
