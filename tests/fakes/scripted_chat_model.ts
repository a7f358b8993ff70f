/** An in-process chat model that answers from a script and records every request. */
import type {
  ChatModel,
  ChatRequest,
  ChatResponse,
  ModelStatus,
} from "../../src/core/chat_model.ts";

/** One scripted step: a response, or a function of the request producing one. */
export type ScriptStep = ChatResponse | ((request: ChatRequest) => ChatResponse);

/** Builds a response that calls one tool with `args`. */
export function toolCallResponse(
  name: string,
  args: Record<string, unknown>,
  id = `call_${name}`,
): ChatResponse {
  return { content: "", toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}

/** Builds a plain text response. */
export function textResponse(content: string): ChatResponse {
  return { content, toolCalls: [], usage: { promptTokens: 10, completionTokens: 5 } };
}

/** A fake ChatModel: returns the script's steps in order; fails loudly when it runs out. */
export class ScriptedChatModel implements ChatModel {
  readonly provider = "scripted";
  readonly model = "scripted-model";
  readonly requests: ChatRequest[] = [];
  #steps: ScriptStep[];

  constructor(steps: ScriptStep[]) {
    this.#steps = [...steps];
  }

  /** Adds more steps. */
  push(...steps: ScriptStep[]): void {
    this.#steps.push(...steps);
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone(request));
    const step = this.#steps.shift();
    if (!step) return Promise.reject(new Error("ScriptedChatModel: script exhausted"));
    return Promise.resolve(typeof step === "function" ? step(request) : step);
  }

  status(): Promise<ModelStatus> {
    return Promise.resolve({
      baseUrl: "scripted:",
      provider: this.provider,
      model: this.model,
      reachable: true,
      modelPresent: true,
      supportsTools: true,
    });
  }
}
