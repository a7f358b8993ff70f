/**
 * The production PdfReader: one short-lived document subprocess per PDF (document_process.ts),
 * killed with SIGKILL at the deadline or when the caller aborts.
 */
import { z } from "zod";
import { lazyValue } from "../../core/zod_issues.ts";
import type {
  PdfInfoWriter,
  PdfInfoWriteRequest,
  PdfInfoWriteResult,
  PdfReader,
  PdfReadRequest,
  PdfReadResult,
} from "../../library/pdf_reader.ts";
import type { PdfProcessCommand } from "./pdf_process_command.ts";
import { DocumentProcess } from "./document_process.ts";

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

/** The subprocess's answers, checked; built on the first job, not while Radar starts. */
const answers = lazyValue(() => {
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

  const infoRecord = z.record(z.string().max(40), z.string().max(400));
  const writeSchema = z.discriminatedUnion("status", [
    z.object({ status: z.literal("ok"), before: infoRecord, after: infoRecord }),
    z.object({ status: z.literal("encrypted") }),
    z.object({ status: z.literal("broken"), message: z.string().max(400) }),
    z.object({ status: z.literal("failed"), message: z.string().max(400) }),
  ]);
  return { resultSchema, writeSchema };
});

/** The reader `tools.pdf` config asks for, over the parent's environment. */
export function createPdfReader(
  config: { timeout_seconds: number },
  env: Record<string, string | undefined>,
): SubprocessPdfReader {
  return new SubprocessPdfReader({ timeoutMs: config.timeout_seconds * 1000, env });
}

/** Reads PDFs (and writes their Info) in a killable, memory-bounded subprocess. */
export class SubprocessPdfReader implements PdfReader, PdfInfoWriter {
  #options: SubprocessPdfReaderOptions;
  #process: DocumentProcess;

  constructor(options: SubprocessPdfReaderOptions) {
    this.#options = options;
    this.#process = new DocumentProcess({ ...options, name: "the PDF reader" });
  }

  /** Runs one extraction; every failure, the deadline included, becomes a result. */
  async read(request: PdfReadRequest): Promise<PdfReadResult> {
    const outcome = await this.#process.run({
      header: {
        kind: "pdf",
        first: request.first,
        last: request.last,
        maxPageChars: request.maxPageChars,
        renderImagePages: request.renderImagePages ?? 0,
      },
      input: request.bytes,
      memoryMb: this.#options.memoryMb ?? 1024,
      maxResultBytes: maxOutputBytes,
      signal: request.signal,
    }, answers().resultSchema);
    return "answer" in outcome ? outcome.answer : outcome;
  }

  /** Writes PDF Info into a new copy (original bytes + an incremental update) in `output`. */
  async writeInfo(request: PdfInfoWriteRequest): Promise<PdfInfoWriteResult> {
    const outcome = await this.#process.run({
      header: { kind: "pdf-set-info", changes: request.changes },
      input: request.input,
      memoryMb: Math.max(this.#options.memoryMb ?? 1024, 3 * Math.ceil(request.size / 2 ** 20)),
      maxResultBytes: 1024 * 1024,
      // An incremental update appends the new Info dictionary and a cross-reference section.
      output: { sink: request.output, maxBytes: request.size + 1024 * 1024 },
      signal: request.signal,
    }, answers().writeSchema);
    if (!("answer" in outcome)) return outcome;
    const { answer, outputBytes } = outcome;
    if (answer.status !== "ok") return answer;
    if (!outputBytes) return { status: "failed", message: "the PDF reader wrote nothing" };
    return { ...answer, bytes: outputBytes };
  }
}
