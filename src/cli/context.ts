/** What every CLI command receives: terminal I/O and a way to open the runtime. */
import type { Radar } from "../runtime/open_radar.ts";
import type { RadarOptions } from "../runtime/radar_options.ts";
import type { LoadedConfig } from "../config/loader.ts";

/** What one read produced. */
export type ReadResult =
  | { kind: "line"; text: string }
  | { kind: "end" }
  | { kind: "interrupt"; hadText: boolean };

/** A source of input lines with interrupts (Ctrl-C). */
export interface LineEditor {
  /** Shows `prompt` and waits for a line, the end of input (Ctrl-D) or Ctrl-C. */
  read(prompt: string): Promise<ReadResult>;
  /** Called on Ctrl-C while no read is pending (an answer is running); undefined to clear. */
  onInterruptWhileBusy(handler: (() => void) | undefined): void;
  /** Restores the terminal. */
  close(): void;
}

/** Terminal input and output, injectable for tests. */
export interface CliIo {
  /** Writes to stdout (under `runCli`, cleaned by `textForTerminal`). */
  stdout(text: string): void;
  /** Writes to stderr (under `runCli`, cleaned by `textForTerminal`). */
  stderr(text: string): void;
  /** Erases stderr's current line: Radar's own control sequence, the one no write can carry. */
  clearStderrLine(): void;
  /** True when stderr is a terminal (spinners and progress go there only then). */
  stderrIsTerminal: boolean;
  stdinIsTerminal: boolean;
  /** True when stdin and stderr are both terminals: a person runs this command (control commands). */
  interactive: boolean;
  /** Reads all of piped stdin (empty when stdin is a terminal). */
  readStdin(maxBytes: number): Promise<{ text: string; truncated: boolean }>;
  /** A line editor on the terminal (history in `historyPath`); absent when stdin is no terminal. */
  lineEditor?(historyPath: string): LineEditor;
  /** Reads one line from the terminal; null at end of input. */
  readLine(prompt: string): Promise<string | null>;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Options every command accepts. */
export interface GlobalOptions {
  config?: string;
  verbose?: boolean;
}

/** Handed to every command registrar. */
export interface CliContext {
  io: CliIo;
  /** Global options as parsed (read inside actions, after parsing). */
  globals(): GlobalOptions;
  /** Opens Radar (`openRadar`: config, database, model, tools) on first call; closed at exit. */
  radar(extra?: Partial<RadarOptions>): Promise<Radar>;
  /** Loads the config without opening the database. */
  config(): Promise<LoadedConfig>;
  /** Sets the process exit code without throwing. */
  setExitCode(code: number): void;
}
