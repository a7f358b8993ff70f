/**
 * The production PdfReader: one short-lived subprocess per PDF (pdf_extract_process.ts), killed
 * with SIGKILL at the deadline or when the caller aborts. A worker would not do: on Deno 2.9.6
 * `worker.terminate()` returns but a worker stuck in a JS or WASM loop keeps spinning a core
 * forever (measured), and a worker running out of memory aborts the whole daemon.
 */
import { concatBytes } from "../../core/bytes.ts";
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { z } from "zod";
import type { PdfReader, PdfReadRequest, PdfReadResult } from "../../core/pdf_reader.ts";
import { findPrlimit } from "../os/process_limits.ts";
import {
  type PdfProcessCommand,
  pdfProcessCommand,
  pdfProcessEnvironment,
} from "./pdf_process_command.ts";
import { denoDirOf } from "../os/deno_child.ts";

/** Limits and environment of the PDF subprocess. */
export interface SubprocessPdfReaderOptions {
  timeoutMs: number;
  /** The parent's environment (the subprocess gets only what Deno needs to find its cache). */
  env: Record<string, string | undefined>;
  /** Memory for MuPDF on top of the runtime's own (default 1024 MB; enforced on Linux). */
  memoryMb?: number;
  /** Replaces the computed command (tests: a subprocess that hangs). */
  command?: PdfProcessCommand;
}

/** Page texts plus up to a few rendered page images (base64, each ≤ 2 MB). */
const maxOutputBytes = 16 * 1024 * 1024;
const maxStderrChars = 2000;

const pageSchema = z.object({
  number: z.number().int(),
  text: z.string(),
  cutChars: z.number().int().min(0),
  images: z.number().int().min(0),
  error: z.string().optional(),
  png: z.string().regex(/^[A-Za-z0-9+/]+=*$/).max(2_100_000).optional(),
});

const resultSchema = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("ok"),
    contents: z.object({
      pageCount: z.number().int().min(0),
      format: z.string(),
      metadata: z.record(z.string(), z.string()),
      pages: z.array(pageSchema),
    }),
  }),
  z.object({ status: z.literal("encrypted") }),
  z.object({ status: z.literal("broken"), message: z.string() }),
  z.object({ status: z.literal("failed"), message: z.string() }),
]);

/** The reader `tools.pdf` config asks for, over the parent's environment. */
export function createPdfReader(
  config: { timeout_seconds: number },
  env: Record<string, string | undefined>,
): PdfReader {
  return new SubprocessPdfReader({ timeoutMs: config.timeout_seconds * 1000, env });
}

/** Reads PDFs in a killable, memory-bounded subprocess. */
export class SubprocessPdfReader implements PdfReader {
  #options: SubprocessPdfReaderOptions;
  #launch?: { command: string; args: string[]; env: Record<string, string> };

  constructor(options: SubprocessPdfReaderOptions) {
    this.#options = options;
  }

  /** Runs one extraction; every failure, the deadline included, becomes a result. */
  async read(request: PdfReadRequest): Promise<PdfReadResult> {
    if (request.signal?.aborted) return { status: "failed", message: "cancelled" };
    const { command, args, env } = this.#launch ??= this.#prepareLaunch();
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
      return { status: "failed", message: `cannot start the PDF reader: ${firstLine(error)}` };
    }
    let ended: "timeout" | "cancelled" | "too much output" | undefined;
    const kill = (why: typeof ended) => {
      ended ??= why;
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    };
    const timer = setTimeout(() => kill("timeout"), this.#options.timeoutMs);
    const onAbort = () => kill("cancelled");
    request.signal?.addEventListener("abort", onAbort);
    try {
      const [output, stderr, status] = await Promise.all([
        readCapped(child.stdout, maxOutputBytes, () => kill("too much output")),
        readStderr(child.stderr),
        child.status,
        writeRequest(child.stdin, request),
      ]);
      if (ended === "timeout") {
        return { status: "timeout", seconds: this.#options.timeoutMs / 1000 };
      }
      if (ended) return { status: "failed", message: ended };
      const parsed = parseResult(output);
      if (parsed) return parsed;
      const how = status.signal ? `killed by ${status.signal}` : `exit code ${status.code}`;
      const lastLine = stderr.trim().split("\n").at(-1)?.slice(0, 200);
      return {
        status: "failed",
        message: `the PDF reader ended (${how}${lastLine ? `: ${lastLine}` : ""})`,
      };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
    }
  }

  #prepareLaunch() {
    const standalone = Deno.build.standalone;
    // Under `deno run`: where the parent's own Deno cache keeps MuPDF (resolved, not loaded).
    const mupdfFile = standalone ? undefined : fromFileUrl(import.meta.resolve("mupdf"));
    const command = this.#options.command ?? pdfProcessCommand({
      standalone,
      execPath: Deno.execPath(),
      mupdfFolder: mupdfFile && dirname(mupdfFile),
      memoryMb: this.#options.memoryMb ?? 1024,
      prlimitPath: findPrlimit(),
    });
    const denoDir = mupdfFile && denoDirOf(mupdfFile, "mupdf");
    return { ...command, env: pdfProcessEnvironment(this.#options.env, denoDir) };
  }
}

async function writeRequest(
  stdin: WritableStream<Uint8Array>,
  request: PdfReadRequest,
): Promise<void> {
  const header = JSON.stringify({
    first: request.first,
    last: request.last,
    maxPageChars: request.maxPageChars,
    renderImagePages: request.renderImagePages ?? 0,
  });
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(`${header}\n`));
    await writer.write(request.bytes);
    await writer.close();
  } catch {
    // The subprocess ended early (killed or crashed): its status tells what happened.
    await writer.abort().catch(() => undefined);
  }
}

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onOverflow: () => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.length > limit) {
      onOverflow();
      continue; // keep draining so the pipe closes
    }
    size += chunk.length;
    chunks.push(chunk);
  }
  const all = concatBytes(chunks);
  return all;
}

async function readStderr(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text = (text + decoder.decode(chunk, { stream: true })).slice(-maxStderrChars);
  }
  return text;
}

function parseResult(output: Uint8Array): PdfReadResult | undefined {
  const line = new TextDecoder().decode(output).trim().split("\n").at(-1);
  if (!line) return undefined;
  try {
    const parsed = resultSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
