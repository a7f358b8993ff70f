/**
 * The production ComicArchives: each read or write is one job in a fresh document subprocess
 * (src/adapters/pdf/document_process.ts), killed at the deadline; its memory ceiling grows with
 * the archive (the subprocess holds it, and for a write the new one too). The answer is checked
 * field by field: the subprocess parsed a hostile file.
 */
import { z } from "zod";
import { lazyValue } from "../../core/zod_issues.ts";
import type {
  ComicArchives,
  ComicReadRequest,
  ComicReadResult,
  ComicWriteRequest,
  ComicWriteResult,
} from "../../library/comic_archive.ts";
import { comicInfoFields } from "../../library/comic_info.ts";
import { DocumentProcess } from "../pdf/document_process.ts";
import type { PdfProcessCommand } from "../pdf/pdf_process_command.ts";

/** Limits and environment of the comic jobs. */
export interface SubprocessComicArchivesOptions {
  timeoutMs: number;
  env: Record<string, string | undefined>;
  /** Replaces the computed command (tests). */
  command?: PdfProcessCommand;
}

/** The subprocess's answers, checked; built on the first job, not while Radar starts. */
const answers = lazyValue(() => {
  const info = z.partialRecord(z.enum(comicInfoFields), z.string().max(4000));
  const names = z.array(z.string().max(200)).max(20);

  const contentsSchema = z.object({
    format: z.enum(["cbz", "cbr"]),
    pages: z.array(z.string().max(4096)).max(10_000),
    otherEntries: z.number().int().min(0),
    info: info.optional(),
    infoProblem: z.string().max(400).optional(),
    cover: z.string().max(4096).optional(),
    coverPng: z.string().regex(/^[A-Za-z0-9+/]+=*$/).max(2_100_000).optional(),
    warnings: z.object({
      unsafeNames: names,
      nestedArchives: names,
      bombEntries: names,
      encrypted: z.number().int().min(0),
    }),
  });

  const readSchema = z.discriminatedUnion("status", [
    z.object({ status: z.literal("ok"), contents: contentsSchema }),
    z.object({ status: z.literal("broken"), message: z.string().max(400) }),
    z.object({ status: z.literal("failed"), message: z.string().max(400) }),
  ]);

  const writeSchema = z.discriminatedUnion("status", [
    z.object({ status: z.literal("ok"), info, before: info.optional() }),
    z.object({ status: z.literal("refused"), message: z.string().max(400) }),
    z.object({ status: z.literal("broken"), message: z.string().max(400) }),
    z.object({ status: z.literal("failed"), message: z.string().max(400) }),
  ]);
  return { readSchema, writeSchema };
});

/** Memory a job may use: the runtime's floor plus three times the archive (in, out, buffers). */
function memoryFor(size: number): number {
  return 256 + 3 * Math.ceil(size / (1024 * 1024));
}

/** Reads and writes comic archives in the document subprocess. */
export class SubprocessComicArchives implements ComicArchives {
  #process: DocumentProcess;

  constructor(options: SubprocessComicArchivesOptions) {
    this.#process = new DocumentProcess({ ...options, name: "the comic reader" });
  }

  /** Lists pages, reads ComicInfo.xml and (when asked) renders the cover. */
  async read(request: ComicReadRequest): Promise<ComicReadResult> {
    const outcome = await this.#process.run({
      header: { kind: "comic-read", renderCover: request.renderCover ?? false },
      input: request.input,
      memoryMb: memoryFor(request.size),
      maxResultBytes: 8 * 1024 * 1024,
      signal: request.signal,
    }, answers().readSchema);
    return "answer" in outcome ? outcome.answer : outcome;
  }

  /** Writes a new CBZ with ComicInfo.xml changed into `request.output`. */
  async writeInfo(request: ComicWriteRequest): Promise<ComicWriteResult> {
    const outcome = await this.#process.run({
      header: { kind: "comic-write", changes: request.changes },
      input: request.input,
      memoryMb: memoryFor(request.size),
      maxResultBytes: 1024 * 1024,
      // ComicInfo.xml adds at most a few KB; a rewrite never grows an archive much.
      output: { sink: request.output, maxBytes: request.size + 2 * 1024 * 1024 },
      signal: request.signal,
    }, answers().writeSchema);
    if (!("answer" in outcome)) return outcome;
    const { answer, outputBytes } = outcome;
    if (answer.status !== "ok") return answer;
    if (!outputBytes) return { status: "failed", message: "the comic reader wrote nothing" };
    return { ...answer, bytes: outputBytes };
  }
}
