/**
 * One job in a fresh document subprocess (pdf_extract_process.ts): the header line and the file's
 * bytes go in on stdin, one JSON result line (and, for a job that writes a file, its bytes) come
 * back on stdout. The subprocess is SIGKILLed at the deadline, on abort, or when it sends more
 * than allowed. A worker would not do: on Deno 2.9.6 `worker.terminate()` returns but a worker
 * stuck in a JS or WASM loop keeps spinning a core forever (measured), and a worker running out of
 * memory aborts the whole daemon.
 */
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { findPrlimit } from "../os/process_limits.ts";
import {
  type PdfProcessCommand,
  pdfProcessCommand,
  pdfProcessEnvironment,
} from "./pdf_process_command.ts";
import { denoDirOf } from "../os/deno_child.ts";
import { firstLine } from "../../core/errors.ts";
import type { z } from "zod";

/** How the subprocess is started (shared by every job of one reader). */
export interface DocumentProcessOptions {
  /** The parent's environment (the subprocess gets only what Deno needs to find its cache). */
  env: Record<string, string | undefined>;
  /** Replaces the computed command (tests: a subprocess that hangs). */
  command?: PdfProcessCommand;
  /** How failures name it ("the PDF reader"). */
  name: string;
  /** Each job's deadline. */
  timeoutMs: number;
}

/** One job. */
export interface DocumentJob {
  header: Record<string, unknown>;
  input: Uint8Array | ReadableStream<Uint8Array>;
  /** Memory for the parsers on top of the runtime's own (enforced on Linux). */
  memoryMb: number;
  /** The result line's cap. */
  maxResultBytes: number;
  /** Where a produced file's bytes go, and how many may come. */
  output?: { sink: WritableStream<Uint8Array>; maxBytes: number };
  signal?: AbortSignal;
}

/** How a job ended: its answer as the job's schema checked it (and the bytes it wrote), or why not. */
export type DocumentJobOutcome<T> =
  | { answer: T; outputBytes: number }
  | { status: "timeout"; seconds: number }
  | { status: "failed"; message: string };

const maxStderrChars = 2000;

/** Runs document jobs, one short-lived subprocess each. */
export class DocumentProcess {
  #options: DocumentProcessOptions;
  #launch?: { standalone: boolean; readFolders: string[]; env: Record<string, string> };

  constructor(options: DocumentProcessOptions) {
    this.#options = options;
  }

  /**
   * Runs one job and checks its answer against `schema` (the subprocess parsed a hostile file);
   * every failure, the deadline and an unreadable answer included, becomes an outcome.
   */
  async run<T>(job: DocumentJob, schema: z.ZodType<T>): Promise<DocumentJobOutcome<T>> {
    const { name } = this.#options;
    if (job.signal?.aborted) return { status: "failed", message: "cancelled" };
    const { command, args, env } = this.#command(job.memoryMb);
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        clearEnv: true,
        env,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      return { status: "failed", message: `cannot start ${name}: ${firstLine(error)}` };
    }
    let ended: "timeout" | "cancelled" | "too much output" | undefined;
    const kill = (why: typeof ended) => {
      ended ??= why;
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    };
    const { timeoutMs } = this.#options;
    const timer = setTimeout(() => kill("timeout"), timeoutMs);
    const onAbort = () => kill("cancelled");
    job.signal?.addEventListener("abort", onAbort);
    try {
      const [answer, stderr, status] = await Promise.all([
        readAnswer(child.stdout, job, () => kill("too much output")),
        readStderr(child.stderr),
        child.status,
        writeRequest(child.stdin, job),
      ]);
      if (ended === "timeout") return { status: "timeout", seconds: timeoutMs / 1000 };
      if (ended) return { status: "failed", message: ended };
      if (answer.result !== undefined && !answer.problem) {
        const parsed = schema.safeParse(answer.result);
        return parsed.success
          ? { answer: parsed.data, outputBytes: answer.outputBytes }
          : { status: "failed", message: `${name} answered something unreadable` };
      }
      const how = status.signal ? `killed by ${status.signal}` : `exit code ${status.code}`;
      const lastLine = stderr.trim().split("\n").at(-1)?.slice(0, 200);
      const why = answer.problem ?? `${how}${lastLine ? `: ${lastLine}` : ""}`;
      return { status: "failed", message: `${name} ended (${why})` };
    } finally {
      clearTimeout(timer);
      job.signal?.removeEventListener("abort", onAbort);
    }
  }

  #command(memoryMb: number): { command: string; args: string[]; env: Record<string, string> } {
    const launch = this.#launch ??= this.#prepare();
    const command = this.#options.command ?? pdfProcessCommand({
      standalone: launch.standalone,
      execPath: Deno.execPath(),
      readFolders: launch.readFolders,
      memoryMb,
      prlimitPath: findPrlimit(),
    });
    return { ...command, env: launch.env };
  }

  #prepare() {
    const standalone = Deno.build.standalone;
    // Under `deno run`: where the parent's own Deno cache keeps the parsers' WASM files (resolved,
    // not loaded): MuPDF's dist folder and node-unrar-js's package folder.
    const mupdfFile = standalone ? undefined : fromFileUrl(import.meta.resolve("mupdf"));
    const unrarFile = standalone ? undefined : fromFileUrl(import.meta.resolve("node-unrar-js"));
    const readFolders = [
      ...(mupdfFile ? [dirname(mupdfFile)] : []),
      ...(unrarFile ? [dirname(dirname(unrarFile))] : []),
    ];
    const denoDir = mupdfFile && denoDirOf(mupdfFile, "mupdf");
    return { standalone, readFolders, env: pdfProcessEnvironment(this.#options.env, denoDir) };
  }
}

async function writeRequest(stdin: WritableStream<Uint8Array>, job: DocumentJob): Promise<void> {
  const header = new TextEncoder().encode(`${JSON.stringify(job.header)}\n`);
  const writer = stdin.getWriter();
  try {
    await writer.write(header);
    if (job.input instanceof Uint8Array) await writer.write(job.input);
    else {
      for await (const chunk of job.input) await writer.write(chunk);
    }
    await writer.close();
  } catch {
    // The subprocess ended early (killed or crashed): its status tells what happened.
    await writer.abort().catch(() => undefined);
    if (!(job.input instanceof Uint8Array)) await job.input.cancel().catch(() => undefined);
  }
}

interface Answer {
  result?: unknown;
  outputBytes: number;
  problem?: string;
}

/** The result line, then exactly `outputBytes` bytes into the job's sink. */
async function readAnswer(
  stream: ReadableStream<Uint8Array>,
  job: DocumentJob,
  onOverflow: () => void,
): Promise<Answer> {
  const answer: Answer = { outputBytes: 0 };
  const decoder = new TextDecoder();
  let line = "";
  let lineBytes = 0;
  let expected = -1;
  let sinkWriter: WritableStreamDefaultWriter<Uint8Array> | undefined;
  for await (let chunk of stream) {
    if (answer.problem) continue; // keep draining so the pipe closes
    if (expected < 0) {
      const newline = chunk.indexOf(10);
      const head = newline < 0 ? chunk : chunk.subarray(0, newline);
      lineBytes += head.length;
      if (lineBytes > job.maxResultBytes) {
        answer.problem = "its answer was too large";
        onOverflow();
        continue;
      }
      line += decoder.decode(head, { stream: newline < 0 });
      if (newline < 0) continue;
      try {
        answer.result = JSON.parse(line);
      } catch {
        // Not an answer (a crash message): the exit status and stderr tell what happened.
        line = "";
        lineBytes = 0;
        continue;
      }
      const count = (answer.result as { outputBytes?: unknown })?.outputBytes;
      expected = Number.isSafeInteger(count) && (count as number) > 0 ? count as number : 0;
      if (expected > (job.output?.maxBytes ?? 0)) {
        answer.problem = "it produced a file larger than allowed";
        onOverflow();
        continue;
      }
      chunk = chunk.subarray(newline + 1);
      if (expected && job.output) sinkWriter = job.output.sink.getWriter();
    }
    if (!chunk.length) continue;
    if (answer.outputBytes + chunk.length > expected || !sinkWriter) {
      answer.problem = "it sent more than it announced";
      onOverflow();
      continue;
    }
    answer.outputBytes += chunk.length;
    await sinkWriter.write(chunk);
  }
  if (sinkWriter) await sinkWriter.close().catch(() => undefined);
  if (!answer.problem && expected > 0 && answer.outputBytes !== expected) {
    answer.problem = `it sent ${answer.outputBytes} of ${expected} bytes`;
  }
  return answer;
}

async function readStderr(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text = (text + decoder.decode(chunk, { stream: true })).slice(-maxStderrChars);
  }
  return text;
}
