/**
 * The judgment probe's prompts: eight short conversations with Radar's own system prompt and
 * tools, each judged on one skill a heartbeat and a chat need (right tool, valid arguments, no
 * tool when none is needed, an answer after a result, recovery from a tool error).
 */
import type { ChatMessage, ChatResponse, ToolCall } from "../core/chat_model.ts";
import type { Tool } from "../core/tool.ts";
import { parseArgumentsText } from "../core/tool_registry.ts";

/** The skills probed, as the report names them. */
export const probeSkills = {
  pick: "picks the right tool",
  args: "gives valid arguments",
  none: "calls no tool when none is needed",
  after: "answers after a tool result",
  recover: "recovers from a tool error",
} as const;

/** A skill's key. */
export type ProbeSkill = keyof typeof probeSkills;

/** What a case's conversation is built with. */
export interface ProbeContext {
  /** A user turn as the loop sends it (stamped with its time). */
  user(text: string): ChatMessage;
  /** A tool result as the loop sends it (untrusted markers). */
  toolResult(call: ToolCall, text: string): ChatMessage;
}

/** One probe. */
export interface ProbeCase {
  id: string;
  skill: ProbeSkill;
  /** The tools it needs offered (all are, when registered). */
  needs: string[];
  /** The conversation after the system prompt. */
  messages(context: ProbeContext): ChatMessage[];
  /** Why the answer is wrong, or undefined when it is right. */
  judge(response: ChatResponse, tools: ReadonlyMap<string, Tool>): string | undefined;
}

const call = (name: string, args: Record<string, unknown>): ToolCall => ({
  id: `call_probe_${name}`,
  name,
  arguments: JSON.stringify(args),
});

/** The first tool call: named `name`, with arguments the tool accepts; else why not. */
function validCall(
  response: ChatResponse,
  name: string,
  tools: ReadonlyMap<string, Tool>,
): { args: Record<string, unknown> } | { problem: string } {
  const first = response.toolCalls[0];
  if (!first) return { problem: `no tool call (answered "${preview(response.content)}")` };
  if (first.name !== name) return { problem: `called ${first.name || "(no name)"}, not ${name}` };
  const parsed = parseArgumentsText(first.arguments);
  if (!parsed.ok) return { problem: `arguments ${parsed.error}` };
  const tool = tools.get(name);
  const checked = tool?.parse(parsed.value);
  if (checked && !checked.ok) return { problem: `invalid arguments: ${checked.error}` };
  return { args: parsed.value };
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

const argument = (args: Record<string, unknown>, key: string) => String(args[key] ?? "");

/** A tool call where none was wanted, or an empty answer; else undefined. */
function plainAnswer(response: ChatResponse, expected?: RegExp): string | undefined {
  if (response.toolCalls.length) {
    return `called ${response.toolCalls.map((item) => item.name).join(", ")} needlessly`;
  }
  if (!response.content.trim()) return "answered nothing";
  if (expected && !expected.test(response.content)) {
    return `answered "${preview(response.content)}"`;
  }
  return undefined;
}

const todo = call("read_file", { path: "~/todo.md" });
const notes = call("read_file", { path: "~/notes.md" });

/** The cases, in the order they run. */
export const probeCases: ProbeCase[] = [
  {
    id: "list-downloads",
    skill: "pick",
    needs: ["list_directory"],
    messages: (context) => [context.user("What files are in my ~/Downloads folder?")],
    judge: (response, tools) => {
      const found = validCall(response, "list_directory", tools);
      if ("problem" in found) return found.problem;
      return /downloads/i.test(argument(found.args, "path")) ? undefined : "listed another folder";
    },
  },
  {
    id: "recall-dentist",
    skill: "pick",
    needs: ["recall"],
    messages: (context) => [context.user("What's my dentist called? I told you last month.")],
    judge: (response, tools) => {
      const found = validCall(response, "recall", tools);
      return "problem" in found ? found.problem : undefined;
    },
  },
  {
    id: "remember-fact",
    skill: "args",
    needs: ["remember"],
    messages: (context) => [context.user("Remember that my sister Ana's birthday is 14 May.")],
    judge: (response, tools) => {
      const found = validCall(response, "remember", tools);
      if ("problem" in found) return found.problem;
      return /ana/i.test(argument(found.args, "content")) ? undefined : "remembered something else";
    },
  },
  {
    id: "notify-backup",
    skill: "args",
    needs: ["notify"],
    messages: (context) => [
      context.user("Send me a notification saying that the backup finished."),
    ],
    judge: (response, tools) => {
      const found = validCall(response, "notify", tools);
      if ("problem" in found) return found.problem;
      return /backup/i.test(argument(found.args, "message"))
        ? undefined
        : "notified of something else";
    },
  },
  {
    id: "no-tool-math",
    skill: "none",
    needs: [],
    messages: (context) => [context.user("What is 12 times 12? Reply with the number only.")],
    judge: (response) => plainAnswer(response, /\b144\b/),
  },
  {
    id: "no-tool-thanks",
    skill: "none",
    needs: [],
    messages: (context) => [context.user("Thanks, that's all for now!")],
    judge: (response) => plainAnswer(response),
  },
  {
    id: "answer-after-result",
    skill: "after",
    needs: ["read_file"],
    messages: (context) => [
      context.user("What's on my todo list in ~/todo.md?"),
      { role: "assistant", content: "", toolCalls: [todo] },
      context.toolResult(todo, "- call mom\n- buy milk\n- renew passport"),
    ],
    judge: (response) => plainAnswer(response, /mom[\s\S]*milk|milk[\s\S]*mom/i),
  },
  {
    id: "recover-error",
    skill: "recover",
    needs: ["read_file"],
    messages: (context) => [
      context.user("Read my notes in ~/notes.md and tell me the first line."),
      { role: "assistant", content: "", toolCalls: [notes] },
      context.toolResult(
        notes,
        "Error: ~/notes.md does not exist. Files in ~: Notes.md, todo.md, Downloads/",
      ),
    ],
    judge: (response, tools) => {
      const next = response.toolCalls[0];
      if (!next) {
        return /exist|not found|Notes\.md|could not|couldn't|no such/i.test(response.content)
          ? undefined
          : `gave up without saying why ("${preview(response.content)}")`;
      }
      const found = validCall(response, "read_file", tools);
      if ("problem" in found) return found.problem;
      return /Notes\.md$/.test(argument(found.args, "path"))
        ? undefined
        : `tried ${argument(found.args, "path")} again`;
    },
  },
];
