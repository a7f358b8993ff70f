/**
 * The document subprocess: reads one request from stdin (a JSON header line, then the file's
 * bytes up to EOF), loads only the parsers that request needs (MuPDF, zip.js, unrar's WASM), drops
 * every permission, and writes one JSON result line to stdout — followed, for a request that
 * produces a file (PDF Info or ComicInfo.xml written), by exactly `outputBytes` bytes of it. Started
 * by the parent as `deno run … pdf_extract_process.ts` or as the compiled binary with the hidden
 * `--radar-pdf-extract` argument (main.ts); the parent kills it at the deadline, so nothing here
 * needs to be careful about time.
 */
import { concatBytes } from "../../core/bytes.ts";
import {
  type ExtractionOptions,
  extractPdf,
  loadMupdf,
  renderImage,
  setPdfInfo,
} from "./mupdf_extraction.ts";
import {
  type ComicModules,
  loadComicModules,
  readComic,
  writeComic,
} from "../archive/comic_process.ts";
import { parseHeader, type ProcessHeader } from "./process_request.ts";

/** The largest request the subprocess accepts (the largest file cap plus the header line). */
export const maxRequestBytes = 2048 * 1024 * 1024 + 65536;
const maxHeaderBytes = 65536;

const permissionNames = ["read", "write", "net", "env", "run", "sys", "ffi", "import"] as const;

type Mupdf = typeof import("mupdf");

/** Runs one request over stdin/stdout (the subprocess's whole life). */
export async function runPdfExtractProcess(): Promise<void> {
  let result: Record<string, unknown>;
  let output: Uint8Array | undefined;
  try {
    const reader = Deno.stdin.readable.getReader();
    const { header, rest } = await readHeader(reader);
    let mupdf: Mupdf | undefined;
    let comic: ComicModules = {};
    if (header.kind === "pdf" || header.kind === "pdf-set-info") mupdf = await loadMupdf();
    else {
      const renderCover = header.kind === "comic-read" && (header.renderCover ?? false);
      comic = await loadComicModules(header.kind, renderCover, loadMupdf);
    }
    for (const name of permissionNames) await Deno.permissions.revoke({ name });
    const body = await readAll(reader, rest, maxRequestBytes);
    ({ result, output } = await handle(header, body, mupdf, comic));
  } catch (error) {
    result = { status: "failed", message: (error as Error).message?.split("\n")[0] ?? "error" };
  }
  const writer = Deno.stdout.writable.getWriter();
  const line = { ...result, ...(output ? { outputBytes: output.length } : {}) };
  await writer.write(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
  if (output) await writer.write(output);
  await writer.close();
}

async function handle(
  header: ProcessHeader,
  body: Uint8Array,
  mupdf: Mupdf | undefined,
  comic: ComicModules,
): Promise<{ result: Record<string, unknown>; output?: Uint8Array }> {
  switch (header.kind) {
    case "pdf":
      return { result: extractPdf(mupdf!, body, header as ExtractionOptions) };
    case "pdf-set-info": {
      const written = setPdfInfo(mupdf!, body, header.changes);
      if (written.status !== "ok") return { result: written };
      const { bytes, ...rest } = written;
      return { result: rest, output: bytes };
    }
    case "comic-read":
      return {
        result: await readComic(comic, body, {
          renderCover: header.renderCover ?? false,
          render: renderImage,
        }),
      };
    case "comic-write": {
      const written = await writeComic(comic, body, header.changes);
      if (written.ok) {
        return {
          result: { status: "ok", info: written.info, before: written.before },
          output: written.bytes,
        };
      }
      return "refused" in written
        ? { result: { status: "refused", message: written.refused } }
        : { result: { status: "broken", message: written.broken } };
    }
  }
}

async function readHeader(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<{ header: ProcessHeader; rest: Uint8Array }> {
  let buffered: Uint8Array = new Uint8Array();
  while (true) {
    const newline = buffered.indexOf(10);
    if (newline >= 0) {
      const text = new TextDecoder().decode(buffered.subarray(0, newline));
      return { header: parseHeader(text), rest: buffered.subarray(newline + 1) };
    }
    if (buffered.length > maxHeaderBytes) throw new Error("request header too large");
    const { value, done } = await reader.read();
    if (done) throw new Error("no request header");
    buffered = concatBytes([buffered, value]);
  }
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array,
  limit: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [first];
  let size = first.length;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) throw new Error("request too large");
    chunks.push(value);
  }
  return concatBytes(chunks);
}

if (import.meta.main) await runPdfExtractProcess();
