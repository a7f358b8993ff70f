/** Helpers for exec tests: the tool over a temp home, chat contexts, process checks. */
import type { RadarConfig } from "../../../src/config/schema.ts";
import type { ToolContext } from "../../../src/core/tool.ts";
import { execTool } from "../../../src/tools/exec.ts";
import { askContext, type TempHome, toolDeps } from "../tool_harness.ts";

/** The exec tool over `home` with the real PATH. */
export function execFor(
  home: TempHome,
  edit: (config: RadarConfig) => void = () => {},
  env: Record<string, string> = {},
) {
  return execTool(toolDeps(home, edit, {
    env: { HOME: home.home, PATH: Deno.env.get("PATH"), ...env },
  }));
}

/** An interactive chat context answering every question with `answer`, recording them. */
export function chatContext(answer: boolean, questions: string[] = []): ToolContext {
  return {
    ...askContext(),
    kind: "chat",
    interactive: true,
    confirm: (question: string) => {
      questions.push(question);
      return Promise.resolve(answer);
    },
  };
}

/** A heartbeat context (unattended). */
export function heartbeatContext(): ToolContext {
  return { ...askContext(), kind: "heartbeat" };
}

/** Processes on this machine (`ps`: reading /proc directly needs --allow-all). */
export async function processList(): Promise<Array<{ pid: number; uid: number; args: string }>> {
  const output = await new Deno.Command("ps", { args: ["-eo", "pid=,uid=,args="] }).output();
  return new TextDecoder().decode(output.stdout).split("\n").flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    return match ? [{ pid: Number(match[1]), uid: Number(match[2]), args: match[3] }] : [];
  });
}
