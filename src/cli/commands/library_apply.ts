/**
 * `radar library scan --apply`: each planned file tagged and filed (comic_info with file) or moved
 * (move_file) by the same tools the filing skills call, so every change is checked by the path guard, journaled and
 * undoable, and recorded in the tool audit trail. A person at a terminal says yes once for the
 * whole plan; without one, only what the standing grants cover is done.
 */
import type { Radar } from "../../runtime/open_radar.ts";
import type { CliContext } from "../context.ts";
import type { PathGuard } from "../../adapters/os/path_guard.ts";
import type { FilingStep } from "../../library/mod.ts";
import { type ToolContext, type ToolResult, toResult } from "../../core/tool.ts";
import { whyNoPerson } from "../control_commands.ts";
import { terminalConfirm } from "../terminal_io.ts";
import { firstLine, UsageError } from "../../core/errors.ts";
import { runTurn } from "../run_turn.ts";
import { pathExists } from "../../adapters/os/quiet_fs.ts";
import { showCount } from "../progress.ts";

/** What became of one planned file. */
export interface ApplyOutcome {
  done: boolean;
  reason?: string;
}

/** True for a PDF whose layout needs what only reading it tells (kind, date, sender). */
export function needsReading(step: FilingStep): boolean {
  return step.kind === "pdf" && step.status === "needs" && !!step.missing?.length;
}

/**
 * Tags and moves every `file` step; with `askModel`, each PDF that needs reading is filed by one
 * `ask` run with the pdf-filing skill. Other steps get no outcome.
 */
export async function applySteps(
  radar: Radar,
  cli: CliContext,
  steps: FilingStep[],
  guard: PathGuard,
  askModel = false,
): Promise<ApplyOutcome[]> {
  const { io } = cli;
  const toFile = steps.filter((step) => step.status === "file" || askModel && needsReading(step));
  const person = !whyNoPerson(io);
  const question = `File ${toFile.length} file${toFile.length === 1 ? "" : "s"} as listed above?`;
  if (person && toFile.length && !await terminalConfirm(io)(question)) {
    throw new UsageError("Nothing was filed");
  }
  const context: ToolContext = {
    kind: "ask",
    // The journal names the command, not a conversation (`radar undo --list`).
    origin: "library scan",
    interactive: person,
    signal: new AbortController().signal,
    // The person said yes to the whole plan; unattended, only standing grants allow a change.
    ...(person ? { confirm: () => Promise.resolve(true) } : {}),
  };
  const outcomes: ApplyOutcome[] = [];
  for (const [index, step] of steps.entries()) {
    if (askModel && needsReading(step)) {
      outcomes.push(await fileByReading(radar, cli, context, step, guard));
      continue;
    }
    if (step.status !== "file") {
      outcomes.push({ done: false });
      continue;
    }
    showCount(io, index + 1, steps.length, guard.display(step.path));
    outcomes.push(await applyStep(radar, context, step));
  }
  if (io.stderrIsTerminal) io.clearStderrLine();
  return outcomes;
}

async function applyStep(
  radar: Radar,
  context: ToolContext,
  step: FilingStep,
): Promise<ApplyOutcome> {
  // A tag and its move are one change (comic_info's file: one journal entry, one undo).
  const result = step.tag
    ? await runTool(radar, context, "comic_info", { path: step.path, set: step.tag, file: true })
    : await runTool(radar, context, "move_file", { source: step.path, destination: step.target });
  return result.outcome === "ok"
    ? { done: true }
    : { done: false, reason: firstLine(result.text, 300) };
}

/** One `ask` run with the pdf-filing skill: the model reads the PDF, tags and files it. */
async function fileByReading(
  radar: Radar,
  cli: CliContext,
  context: ToolContext,
  step: FilingStep,
  guard: PathGuard,
): Promise<ApplyOutcome> {
  const shown = guard.display(step.path);
  const conversationId = radar.conversations.createConversation(
    "ask",
    `File ${shown}`,
    radar.clock.now(),
  );
  try {
    const result = await runTurn(cli, {
      conversationId,
      kind: "ask",
      message: `Use the pdf-filing skill to file ${shown}.`,
      interactive: context.interactive,
      confirm: context.confirm,
    });
    const moved = !pathExists(step.path);
    return moved
      ? { done: true }
      : { done: false, reason: firstLine(result.answer || "the model did not file it", 300) };
  } catch (error) {
    return { done: false, reason: firstLine(error, 300) };
  }
}

/** Runs one tool the way a model's call runs (validated, audited); never throws. */
async function runTool(
  radar: Radar,
  context: ToolContext,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const tool = (await radar.agentStack()).registry.get(name);
  if (!tool) return { outcome: "error", text: `${name} is not available` };
  const parsed = tool.parse(args);
  if (!parsed.ok) return { outcome: "error", text: parsed.error };
  // Without a person, a standing grant that matches the call is the yes (as in a heartbeat).
  const granted = !context.confirm && radar.away.grants.check(tool, args);
  const started = performance.now();
  let result: ToolResult;
  try {
    result = toResult(
      await tool.run(
        parsed.value,
        granted ? { ...context, confirm: () => Promise.resolve(true) } : context,
      ),
    );
  } catch (error) {
    result = { outcome: "error", text: error instanceof Error ? error.message : String(error) };
  }
  radar.toolCalls.recordToolCall({
    at: radar.clock.now(),
    tool: name,
    arguments: JSON.stringify(args),
    durationMs: performance.now() - started,
    outcome: result.outcome,
    result: result.text,
  });
  return result;
}
