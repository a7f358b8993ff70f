/** `radar chat`: a readline REPL over one conversation. */
import type { Command } from "commander";
import { LlmError } from "../../core/errors.ts";
import type { CliContext } from "../context.ts";
import { runTurn } from "../run_turn.ts";

/** Registers `chat`. */
export function registerChat(program: Command, context: CliContext): void {
  program.command("chat")
    .description("interactive chat (/new starts over, /exit quits)")
    .option("--continue", "continue the most recent chat conversation")
    .action(async (options: { continue?: boolean }) => {
      const runtime = await context.runtime();
      const { io } = context;
      const start = () => runtime.conversations.createConversation("chat", "", runtime.clock.now());
      let conversationId = options.continue
        ? runtime.conversations.latest("chat")?.id ?? start()
        : start();
      io.stderr(`Radar chat (conversation ${conversationId}). /new starts over, /exit quits.\n`);
      const confirm = async (question: string) => {
        const answer = await io.readLine(`${question} [y/N] `);
        return /^y(es)?$/i.test(answer?.trim() ?? "");
      };
      while (true) {
        const line = await io.readLine("> ");
        if (line === null || line.trim() === "/exit" || line.trim() === "/quit") break;
        const text = line.trim();
        if (!text) continue;
        if (text === "/new") {
          conversationId = start();
          io.stderr(`New conversation ${conversationId}.\n`);
          continue;
        }
        runtime.conversations.titleIfUntitled(conversationId, text);
        try {
          const result = await runTurn(context, {
            conversationId,
            kind: "chat",
            message: text,
            interactive: io.stdinIsTerminal,
            confirm: io.stdinIsTerminal ? confirm : undefined,
          });
          io.stdout(`${result.answer.trim()}\n`);
        } catch (error) {
          if (!(error instanceof LlmError)) throw error;
          io.stderr(`radar: ${error.message}\n`);
        }
      }
    });
}
