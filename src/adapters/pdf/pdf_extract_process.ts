/**
 * The PDF subprocess: loads MuPDF, drops every permission, reads one request from stdin (a JSON
 * line with the options, then the PDF's bytes up to EOF), writes one JSON result line to stdout
 * and exits. Started by SubprocessPdfReader as `deno run … pdf_extract_process.ts` or as the
 * compiled binary with the hidden `--radar-pdf-extract` argument (main.ts); the parent kills it at
 * the deadline, so nothing here needs to be careful about time.
 */
import { concatBytes } from "../../core/bytes.ts";
import type { PdfReadResult } from "../../core/pdf_reader.ts";
import { type ExtractionOptions, extractPdf, loadMupdf } from "./mupdf_extraction.ts";

/** The largest request the subprocess accepts (the PDF cap plus the header line). */
export const maxRequestBytes = 200 * 1024 * 1024 + 4096;

const permissionNames = ["read", "write", "net", "env", "run", "sys", "ffi", "import"] as const;

/** Runs one extraction over stdin/stdout (the subprocess's whole life). */
export async function runPdfExtractProcess(): Promise<void> {
  let result: PdfReadResult;
  try {
    const mupdf = await loadMupdf();
    for (const name of permissionNames) {
      await Deno.permissions.revoke({ name });
    }
    const request = await readAll(Deno.stdin.readable, maxRequestBytes);
    const newline = request.indexOf(10);
    if (newline < 0) throw new Error("no request header");
    const options = parseOptions(new TextDecoder().decode(request.subarray(0, newline)));
    result = extractPdf(mupdf, request.subarray(newline + 1), options);
  } catch (error) {
    result = { status: "failed", message: (error as Error).message?.split("\n")[0] ?? "error" };
  }
  const writer = Deno.stdout.writable.getWriter();
  await writer.write(new TextEncoder().encode(`${JSON.stringify(result)}\n`));
  await writer.close();
}

function parseOptions(line: string): ExtractionOptions {
  const value = JSON.parse(line);
  const count = (name: string) => {
    const number = value?.[name];
    if (!Number.isInteger(number) || number < 0) throw new Error(`bad request field ${name}`);
    return number as number;
  };
  return {
    first: count("first"),
    last: count("last"),
    maxPageChars: count("maxPageChars"),
    renderImagePages: value?.renderImagePages === undefined ? 0 : count("renderImagePages"),
  };
}

async function readAll(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) throw new Error("request too large");
    chunks.push(chunk);
  }
  const all = concatBytes(chunks);
  return all;
}

if (import.meta.main) await runPdfExtractProcess();
