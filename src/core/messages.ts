/** Messages exchanged with a chat model, independent of any wire format. */

/** Who wrote a message. */
export type Role = "system" | "user" | "assistant" | "tool";

/** One tool call requested by the model. `arguments` is the raw JSON text as the model sent it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation. */
export interface ChatMessage {
  role: Role;
  content: string;
  /** Set on assistant messages that request tools. */
  toolCalls?: ToolCall[];
  /** Set on tool messages: which call this answers. */
  toolCallId?: string;
  /** Set on tool messages: the tool that produced the result. */
  toolName?: string;
  /** Base64 PNG images shown with a user message (vision models only). */
  images?: string[];
  /**
   * Set on assistant messages a run stored: what that run had read when the model wrote them
   * (its words may hold any of it). Never sent to the model.
   */
  readFrom?: ReadSources;
}

/**
 * What a run had read, by source ("tool read_file", "events"): everything from outside, and the
 * part of it that was private (`src/away/run_labels.ts`). A later run that replays words written
 * after those reads has read them too.
 */
export interface ReadSources {
  untrusted: string[];
  private: string[];
}

/** Token counts as reported by the server (absent when it reports none). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** Adds two optional usages, keeping `undefined` only when both are. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}
