/** The real terminal: Deno's stdin, stdout and stderr. */
import { readCapped } from "../adapters/network/bounded_read.ts";
import type { CliIo } from "./context.ts";
import { terminalLineEditor } from "./line_editor.ts";

const encoder = new TextEncoder();

/** Writes all bytes (writeSync may write only part of a large buffer). */
function writeAll(target: { writeSync(data: Uint8Array): number }, text: string): void {
  let data = encoder.encode(text);
  while (data.length) data = data.subarray(target.writeSync(data));
}

/** Reads up to `maxBytes` from stdin. */
async function readAllStdin(maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  const { bytes, cut } = await readCapped(new Response(Deno.stdin.readable), maxBytes);
  return { text: new TextDecoder().decode(bytes.subarray(0, maxBytes)), truncated: cut };
}

let lineReader: ReadableStreamDefaultReader<string> | undefined;
let buffered = "";

async function readLineFromStdin(prompt: string): Promise<string | null> {
  if (Deno.stdin.isTerminal()) writeAll(Deno.stdout, prompt);
  lineReader ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
  while (!buffered.includes("\n")) {
    const { value, done } = await lineReader.read();
    if (done) {
      if (!buffered) return null;
      const rest = buffered;
      buffered = "";
      return rest;
    }
    buffered += value;
  }
  const index = buffered.indexOf("\n");
  const line = buffered.slice(0, index).replace(/\r$/, "");
  buffered = buffered.slice(index + 1);
  return line;
}

/**
 * Writes to stdout; when the reader went away (`radar history | head -1`) the process ends quietly
 * with exit 0, as a pipeline expects, instead of failing on every later line.
 */
function writeStdout(text: string): void {
  try {
    writeAll(Deno.stdout, text);
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) Deno.exit(0);
    throw error;
  }
}

/** Writes to stderr; a closed stderr is ignored (there is nowhere left to report). */
function writeStderr(text: string): void {
  try {
    writeAll(Deno.stderr, text);
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

/**
 * The folder the user ran the command in: `deno task` runs in the repository and passes the
 * caller's folder as INIT_CWD; elsewhere the process's cwd.
 */
function invocationDirectory(env: Record<string, string | undefined>): string {
  return env.INIT_CWD || Deno.cwd();
}

/**
 * A y/N question for the person at the terminal: the question on stderr (stdout carries only the
 * answer), the reply read from stdin; only y or yes means yes, end of input means no.
 */
export function terminalConfirm(io: CliIo): (question: string) => Promise<boolean> {
  return async (question) => {
    io.stderr(`${question} [y/N] `);
    const reply = await io.readLine("");
    if (reply === null) io.stderr("\n");
    return reply !== null && /^y(es)?$/i.test(reply.trim());
  };
}

/** Builds the CliIo of this process. */
export function terminalIo(): CliIo {
  const env = Deno.env.toObject();
  return {
    stdout: writeStdout,
    stderr: writeStderr,
    clearStderrLine: () => writeStderr("\r\x1b[2K"),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    stdinIsTerminal: Deno.stdin.isTerminal(),
    interactive: Deno.stdin.isTerminal() && Deno.stderr.isTerminal(),
    readStdin: (max) =>
      Deno.stdin.isTerminal() ? Promise.resolve({ text: "", truncated: false }) : readAllStdin(max),
    readLine: readLineFromStdin,
    lineEditor: Deno.stdin.isTerminal() ? terminalLineEditor : undefined,
    env,
    cwd: invocationDirectory(env),
  };
}
