/** `radar ask "…"`: one question through the agent loop, answer on stdout. */
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import type { CliContext } from "../context.ts";
import { runTurn } from "../run_turn.ts";
import { whyNoPerson } from "../control_commands.ts";
import { terminalConfirm } from "../terminal_io.ts";
import { printJson } from "../json_output.ts";
import { untrustedNotice, wrapUntrusted } from "../../core/untrusted_text.ts";
import type { LongInput, ReadingReport } from "../../core/document_reading.ts";

/** Piped stdin beyond this many bytes is cut (with a note to the model). */
const maxStdinBytes = 100_000;

/** The question with piped stdin as untrusted data (it cannot close its own markers). */
function withStdin(question: string, piped: { text: string; truncated: boolean }): string {
  const source = piped.truncated ? `stdin, cut at ${maxStdinBytes} bytes` : "stdin";
  return `${question}\n\n${wrapUntrusted(piped.text, { source })}\n${untrustedNotice}`;
}

/** Piped stdin for reading in parts when the whole message does not fit the model's context. */
function longInputOf(question: string, piped: { text: string; truncated: boolean }): LongInput {
  return {
    question,
    text: piped.text,
    source: "piped input",
    ...(piped.truncated
      ? { cutBefore: `Only the first ${maxStdinBytes} bytes of stdin reached Radar.` }
      : {}),
  };
}

/** The line after an answer that rests on part of the piped input (none when it read it all). */
export function readingLine(reading: ReadingReport | undefined): string {
  if (!reading || reading.whole) return "";
  const share = Math.floor(100 * reading.read / Math.max(1, reading.characters));
  const parts = reading.parts > 1 ? `, ${reading.partsRead} of ${reading.parts} parts` : "";
  const cut = reading.cutBefore ? ` ${reading.cutBefore}` : "";
  return `(Radar read ${reading.read} of ${reading.characters} characters of the piped input ` +
    `(${share} %${parts}).${cut})\n`;
}

/**
 * Who answers a tool's question (write outside the usual folders, a personality note, a command
 * that needs a yes): the person at the terminal, with y/N as in chat. Nobody, when no person is
 * present (a script, a pipe, Radar's own exec): the tool refuses and says how to do it instead.
 */
function questionsFor(context: CliContext): ((question: string) => Promise<boolean>) | undefined {
  if (whyNoPerson(context.io)) return undefined;
  return terminalConfirm(context.io);
}

/** Registers `ask`. */
export function registerAsk(program: Command, context: CliContext): void {
  program.command("ask")
    .description("ask one question; piped stdin is added as context")
    .argument("<question...>", "the question")
    .option("--json", "print a machine-readable record instead of the answer")
    .option("-P, --personality <name>", "the personality for this question (by name)")
    .action(async (words: string[], options: { json?: boolean; personality?: string }) => {
      const question = words.join(" ").trim();
      if (!question) throw new UsageError("Cannot ask: the question is empty");
      const piped = await context.io.readStdin(maxStdinBytes);
      const hasStdin = piped.text.trim() !== "";
      const message = hasStdin ? withStdin(question, piped) : question;
      const radar = await context.radar();
      const now = radar.clock.now();
      const conversationId = radar.conversations.createConversation("ask", question, now);
      const confirm = questionsFor(context);
      const result = await runTurn(context, {
        conversationId,
        kind: "ask",
        message,
        interactive: confirm !== undefined,
        confirm,
        personality: options.personality,
        ...(hasStdin ? { longInput: longInputOf(question, piped) } : {}),
      });
      if (!options.json) {
        context.io.stdout(`${result.answer.trim()}\n${readingLine(result.reading)}`);
      } else {
        printJson(context, {
          conversationId,
          answer: result.answer,
          stopReason: result.stopReason,
          iterations: result.iterations,
          usage: result.usage ?? null,
          modelDurationMs: Math.round(result.modelDurationMs),
          offeredTools: result.offeredTools,
          estimatedPromptTokens: result.estimatedPromptTokens,
          toolCalls: result.toolExecutions.map((execution) => ({
            name: execution.name,
            arguments: execution.argumentsText,
            outcome: execution.result.outcome,
            durationMs: Math.round(execution.durationMs),
            result: execution.result.text,
            // The call waits for the user's yes (`radar approvals show ID`).
            ...(execution.result.approvalId === undefined
              ? {}
              : { approvalId: execution.result.approvalId }),
          })),
          warnings: result.warnings,
          reading: result.reading ?? null,
        });
      }
      if (result.stopReason === "max_iterations") context.setExitCode(1);
    });
}
