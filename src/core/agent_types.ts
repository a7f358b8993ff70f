/**
 * What the agent loop takes and gives: its dependencies (ports), one request, the progress events
 * it reports and the result of a run. The loop itself is `runAgent` in agent_loop.ts.
 */
import type {
  ChatMessage,
  ChatModel,
  ChatResponse,
  ReadSources,
  ToolCall,
  Usage,
} from "./chat_model.ts";
import type { AuditSink, Clock, ConversationRuns, ConversationStore } from "./ports.ts";
import type { ConversationKind, ResultLabel, Tool, ToolContext } from "./tool.ts";
import type { ToolExecution, ToolGate, ToolObserver, ToolRegistry } from "./tool_registry.ts";
import type { ToolRanker } from "./tool_relevance.ts";
import type { PromptVariableSource } from "./system_prompt.ts";
import type { Hooks } from "./hooks.ts";
import type { LongInput, ReadingReport } from "./document_reading.ts";

/** Loop settings from config. */
export interface AgentSettings {
  maxToolIterations: number;
  temperature: number;
  toolBudgetTokens: number;
  historyMessages: number;
  maxResultChars: number;
}

/** Progress of a run, for spinners, verbose output and the dashboard. */
export type AgentEvent =
  | { type: "tools_offered"; tools: string[]; estimatedPromptTokens: number }
  | { type: "model_started"; iteration: number }
  | { type: "reading"; part: number; parts: number }
  | { type: "model_finished"; iteration: number; response: ChatResponse }
  | { type: "tool_started"; name: string; argumentsText: string }
  | { type: "tool_finished"; execution: ToolExecution };

/** Everything the loop needs, as ports. */
export interface AgentDependencies {
  model: ChatModel;
  registry: ToolRegistry;
  store: ConversationStore;
  clock: Clock;
  settings: AgentSettings;
  /**
   * Builds the system prompt for this run (personality, notes, plugin variables); `run` names the
   * conversation (its start time fills the personality's time templates).
   */
  systemPrompt: (variables?: Record<string, string>, run?: { conversationId?: number }) => string;
  /** Dynamic prompt values (plugins' prompt variables), fetched once per run. */
  promptVariables?: PromptVariableSource;
  audit?: AuditSink;
  gates?: readonly ToolGate[];
  /** Post-call observers (plugins' post_tool_call hooks). */
  observers?: readonly ToolObserver[];
  /** Hooks at filter_tools, pre_agent_run and post_agent_run (tool-call points come as gates). */
  hooks?: Hooks;
  /** A monotonic milliseconds counter (performance.now in production). */
  elapsed: () => number;
  /**
   * The untrusted-text marker id (tests pin it). By default one random id per process: the content
   * cannot know it, and replayed tool results stay byte-identical from request to request, so the
   * server's prompt cache keeps the conversation's prefix.
   */
  markerId?: () => string;
  /**
   * Renders a user message as the model sees it (its send time first, see `stampUserMessage`):
   * applied to stored history too, so earlier turns replay byte-identically (prompt cache).
   * Heartbeat messages carry their time already and are left as they are.
   */
  stampUserMessage?: (content: string, sentAt: Date) => string;
  /** Embedding similarity of tools to a message, used when not every tool fits the budget. */
  toolRanker?: ToolRanker;
  /**
   * The guard of each run (`src/away/run_guard.ts`: effects, the run's labels, grants, who says yes); absent:
   * no guard, only a hand-built loop in tests runs so (the composition root always sets it).
   */
  guard?: RunGuards;
  /** Runs in progress: a run whose process is killed is shown as interrupted later. */
  runs?: ConversationRuns;
  /**
   * Outside text the system prompt holds besides plugin values (skills the user installed), read
   * by every run.
   */
  promptReads?: () => readonly RequestRead[];
}

/**
 * Port: the guard of one run, asked about every tool call: `begin` it, the registry runs it with
 * `gate` after the hooks' gates, `settle` may turn the result into a pending approval, `read`
 * records the result as text the run has read.
 */
export interface RunGuard {
  /** The `confirm` the run's tools get (undefined: nobody could ever answer). */
  readonly confirm: ToolContext["confirm"];
  begin(call: ToolCall): void;
  readonly gate: ToolGate;
  settle(execution: ToolExecution): Promise<ToolExecution>;
  /**
   * A tool's result was read (its label: what a built-in tool `reported` for this result, else
   * what the tool declares for the call's arguments).
   */
  read(
    tool: Tool | undefined,
    name: string,
    text: string,
    args?: unknown,
    reported?: ResultLabel,
  ): void;
  /**
   * Outside text the request itself holds was read: MCP and plugin tool descriptions and schemas
   * when offered, plugins' prompt values, skills the user installed.
   */
  readRequest(parts: readonly RequestRead[]): void;
  /** What the run has read so far (stored with each assistant message: its words may hold it). */
  readSources(): ReadSources;
  /** See `ToolContext.mayAlsoSendTo` (absent: the call may send anywhere it is taken). */
  readonly mayAlsoSendTo?: ToolContext["mayAlsoSendTo"];
}

/** Outside text a request holds, as something the run read: where from, and its label. */
export interface RequestRead {
  source: string;
  label: ResultLabel;
}

/** Builds the guard of one run from its request, the history it replays and its tools. */
export type RunGuards = (
  request: AgentRequest,
  history: readonly ChatMessage[],
  registry: ToolRegistry,
) => RunGuard;

/** One run of the loop. */
export interface AgentRequest {
  conversationId: number;
  kind: ConversationKind;
  userMessage: string;
  /**
   * The user message is stored in the conversation already (a run resumed after a restart
   * interrupted it): the history replays it, so it is neither stored nor added again.
   */
  userMessageStored?: boolean;
  interactive: boolean;
  confirm?: (question: string) => Promise<boolean>;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Override of the tools to offer (names); default: the registry's selection. */
  toolNames?: string[];
  /** The run's outbox (heartbeats and tasks), handed to tools in their context. */
  sideEffects?: ToolContext["sideEffects"];
  /**
   * Long input inside `userMessage` (piped stdin): when the message does not fit the model's
   * context whole, this text is read in parts and the question sent with the notes.
   */
  longInput?: LongInput;
}

/** Why a run stopped. */
export type StopReason = "answer" | "max_iterations" | "cancelled";

/** What a run produced. */
export interface AgentResult {
  answer: string;
  stopReason: StopReason;
  iterations: number;
  toolExecutions: ToolExecution[];
  usage?: Usage;
  modelDurationMs: number;
  offeredTools: string[];
  estimatedPromptTokens: number;
  warnings: string[];
  /** Set when a pre_agent_run hook blocked the message: nothing was sent or stored. */
  blocked?: true;
  /** How much of the long input the answer rests on (set when it was read in parts or cut). */
  reading?: ReadingReport;
}

/** What a run did, for the run log: the tools it called and the notifications it sent. */
export function runActivity(result: AgentResult): { tools: string[]; notifications: number } {
  return {
    tools: result.toolExecutions.map((execution) => execution.name),
    notifications:
      result.toolExecutions.filter((execution) =>
        execution.name === "notify" && execution.result.outcome === "ok"
      ).length,
  };
}
