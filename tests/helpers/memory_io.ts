/** An in-memory CliIo for running the CLI in-process in tests. */
import type { CliIo } from "../../src/cli/context.ts";

/** A CliIo that records stdout/stderr and answers readLine from a list. */
export interface RecordingIo extends CliIo {
  out: string[];
  err: string[];
}

/** Creates a recording io; `lines` answer readLine in order, then end of input. */
export function memoryIo(
  env: Record<string, string | undefined>,
  options: { cwd?: string; stdin?: string; lines?: string[]; interactive?: boolean } = {},
): RecordingIo {
  const lines = [...(options.lines ?? [])];
  const io: RecordingIo = {
    out: [],
    err: [],
    stdout: (text) => void io.out.push(text),
    stderr: (text) => void io.err.push(text),
    clearStderrLine: () => {},
    stderrIsTerminal: false,
    stdinIsTerminal: options.stdin === undefined,
    // A test without piped stdin stands for a person at a terminal (control commands run).
    interactive: options.interactive ?? options.stdin === undefined,
    readStdin: (max) =>
      Promise.resolve({
        text: (options.stdin ?? "").slice(0, max),
        truncated: (options.stdin ?? "").length > max,
      }),
    readLine: () => Promise.resolve(lines.length ? lines.shift()! : null),
    env,
    cwd: options.cwd ?? "/",
  };
  return io;
}
