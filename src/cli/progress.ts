/** Live progress on stderr: a spinner with elapsed time while the model works, a line per tool. */
import type { AgentEvent } from "../core/agent_types.ts";
import type { CliIo } from "./context.ts";

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Shows progress for one run; a no-op unless stderr is a terminal. */
export class Progress {
  #timer?: ReturnType<typeof setInterval>;
  #frame = 0;
  #since = 0;

  constructor(private readonly io: CliIo, private readonly now: () => number = Date.now) {}

  /** Handles one loop event. */
  onEvent = (event: AgentEvent): void => {
    if (!this.io.stderrIsTerminal) return;
    if (event.type === "model_started") this.#start("thinking");
    else if (event.type === "reading") this.#start(`reading part ${event.part}/${event.parts}`);
    else if (event.type === "model_finished") this.#stop();
    else if (event.type === "tool_started") {
      this.io.clearStderrLine();
      this.io.stderr(`→ ${event.name} ${preview(event.argumentsText)}\n`);
    } else if (event.type === "tool_finished") {
      const { execution } = event;
      const mark = execution.result.outcome === "ok" ? "✓" : "✗";
      this.io.clearStderrLine();
      this.io.stderr(
        `  ${mark} ${execution.name} ${execution.result.outcome} (${
          Math.round(execution.durationMs)
        } ms)\n`,
      );
    }
  };

  /** Stops the spinner and clears its line. */
  finish(): void {
    this.#stop();
  }

  #start(label: string): void {
    this.#stop();
    this.#since = this.now();
    this.#timer = setInterval(() => {
      const seconds = ((this.now() - this.#since) / 1000).toFixed(1);
      this.io.clearStderrLine();
      this.io.stderr(`${frames[this.#frame++ % frames.length]} ${label} ${seconds}s`);
    }, 100);
  }

  #stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.io.clearStderrLine();
  }
}

/** On a terminal, replaces the stderr line with `done/total` and the end of `label`. */
export function showCount(io: CliIo, done: number, total: number, label: string): void {
  if (!io.stderrIsTerminal) return;
  io.clearStderrLine();
  io.stderr(`${done}/${total} ${label.slice(-60)}`);
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
