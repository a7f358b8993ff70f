/** `radar chat`: a line-editing REPL over one conversation. */
import { join } from "node:path";
import type { Command } from "commander";
import { LlmError } from "../../core/errors.ts";
import type { CliContext, LineEditor, ReadResult } from "../context.ts";
import { plainLineEditor } from "../line_editor.ts";
import { runTurn } from "../run_turn.ts";

/** The help `/help` prints. */
const chatHelp = `Commands:
  /new    start a new conversation
  /exit   quit (also Ctrl-D, or Ctrl-C twice at an empty prompt)
  /help   this help
  """     on a line of its own starts a multi-line message; another """ ends it
Ctrl-C while Radar answers cancels the answer.
`;

/** Reads one message: a line, or the lines between two `"""` lines. */
async function readMessage(editor: LineEditor): Promise<ReadResult> {
  const first = await editor.read("> ");
  if (first.kind !== "line" || first.text.trim() !== '"""') return first;
  const lines: string[] = [];
  while (true) {
    const next = await editor.read("… ");
    if (next.kind === "interrupt") return next;
    if (next.kind === "end" || next.text.trim() === '"""') {
      return { kind: "line", text: lines.join("\n") };
    }
    lines.push(next.text);
  }
}

/** Registers `chat`. */
export function registerChat(program: Command, context: CliContext): void {
  program.command("chat")
    .description("interactive chat (/help lists its commands)")
    .option("--continue", "continue the most recent chat conversation")
    .option("-P, --personality <name>", "the personality for this chat (by name)")
    .action(async (options: { continue?: boolean; personality?: string }) => {
      const radar = await context.radar();
      // Checked before the first message: an unknown personality is one line, exit 2.
      await radar.agent(options.personality ? { personality: options.personality } : undefined);
      const { io } = context;
      const start = () => radar.conversations.createConversation("chat", "", radar.clock.now());
      let conversationId = options.continue
        ? radar.conversations.latest("chat")?.id ?? start()
        : start();
      const editor = io.lineEditor?.(join(radar.dataDir, "chat_history")) ??
        plainLineEditor(io);
      io.stderr(`Radar chat (conversation ${conversationId}). /help lists commands.\n`);
      let running: AbortController | undefined;
      const confirm = async (question: string) => {
        const answer = await editor.read(`${question} [y/N] `);
        if (answer.kind === "interrupt") running?.abort();
        return answer.kind === "line" && /^y(es)?$/i.test(answer.text.trim());
      };
      let warned = false;
      try {
        while (true) {
          const input = await readMessage(editor);
          if (input.kind === "end") break;
          if (input.kind === "interrupt") {
            if (input.hadText) continue;
            if (warned) break;
            warned = true;
            io.stderr("(Ctrl-C again or Ctrl-D to exit)\n");
            continue;
          }
          warned = false;
          const text = input.text.trim();
          if (!text) continue;
          if (text === "/exit" || text === "/quit") break;
          if (text === "/help") {
            io.stderr(chatHelp);
            continue;
          }
          if (text === "/new") {
            conversationId = start();
            io.stderr(`New conversation ${conversationId}.\n`);
            continue;
          }
          radar.conversations.titleIfUntitled(conversationId, text);
          running = new AbortController();
          editor.onInterruptWhileBusy(() => running?.abort());
          try {
            const result = await runTurn(context, {
              conversationId,
              kind: "chat",
              message: text,
              interactive: io.stdinIsTerminal,
              confirm: io.stdinIsTerminal ? confirm : undefined,
              signal: running.signal,
              personality: options.personality,
            });
            if (result.stopReason === "cancelled") io.stderr("(cancelled)\n");
            else io.stdout(`${result.answer.trim()}\n`);
          } catch (error) {
            if (!(error instanceof LlmError)) throw error;
            io.stderr(`radar: ${error.message}\n`);
          } finally {
            editor.onInterruptWhileBusy(undefined);
            running = undefined;
          }
        }
      } finally {
        editor.close();
      }
    });
}
