/**
 * A statement file as bytes: read under the size cap (a regular file only), hashed (sha256: the
 * same bytes are never imported twice), its format told from its name and first bytes, and its
 * text decoded (UTF-8 or UTF-16 with a BOM, UTF-8, else Windows-1252 as older bank exports are).
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { type StatementFormat, StatementProblem } from "./money.ts";
import { firstLine } from "../core/errors.ts";

/** A statement file read into memory. */
export interface StatementFile {
  path: string;
  name: string;
  bytes: Uint8Array;
  hash: string;
}

/** Reads a statement file of at most `maxBytes`. */
export async function readStatementFile(path: string, maxBytes: number): Promise<StatementFile> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    throw new StatementProblem(
      error instanceof Deno.errors.NotFound
        ? "no such file"
        : `cannot read it (${firstLine(error)})`,
    );
  }
  if (!info.isFile) throw new StatementProblem("not a file");
  if (info.size > maxBytes) {
    throw new StatementProblem(
      `${sizeText(info.size)} is larger than money.max_file_mib (${sizeText(maxBytes)})`,
    );
  }
  const file = await Deno.open(path, { read: true });
  try {
    // One byte more than the file had: reading into it means the file grew meanwhile.
    const buffer = new Uint8Array(info.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = await file.read(buffer.subarray(length));
      if (read === null) break;
      length += read;
    }
    if (length > info.size) throw new StatementProblem("the file changed while it was read");
    const bytes = buffer.slice(0, length);
    return {
      path,
      name: basename(path),
      bytes,
      hash: createHash("sha256").update(bytes).digest("hex"),
    };
  } finally {
    file.close();
  }
}

/** A size for people: "20 KiB", "12.5 MiB". */
function sizeText(bytes: number): string {
  if (bytes < 1048576) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${(bytes / 1048576).toFixed(1).replace(/\.0$/, "")} MiB`;
}

/** The format of a statement, from its first bytes (then its name). */
export function statementFormat(name: string, bytes: Uint8Array): StatementFormat {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  if (/^\s*(\uFEFF|ï»¿)?\s*OFXHEADER|<OFX>/i.test(head) || /\.(ofx|qfx)$/i.test(name)) return "ofx";
  if (/camt\.05[234]|<BkToCstmr/i.test(head)) return "camt053";
  if (/^\s*(\uFEFF|ï»¿)?\s*<\?xml/i.test(head) || /\.xml$/i.test(name)) return "camt053";
  return "csv";
}

/** A text file's content: BOM first, else UTF-8, else Windows-1252. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder("utf-8").decode(bytes.subarray(3));
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}
