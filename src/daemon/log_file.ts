/** The daemon's log file in the data directory, rotated by size, and reading it back. */
import { join } from "node:path";

/** The log file of a data directory. */
export function logPath(dataDir: string): string {
  return join(dataDir, "logs", "radar.log");
}

/** An append-only log file that rotates to .1, .2, … when it grows past `maxBytes`. */
export class RotatingLogFile {
  #file: Deno.FsFile | undefined;
  #size = 0;
  readonly #encoder = new TextEncoder();

  constructor(
    readonly path: string,
    private readonly options: { maxBytes: number; keep: number } = {
      maxBytes: 5 * 1024 * 1024,
      keep: 3,
    },
  ) {
    Deno.mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
    this.#open();
  }

  /** Appends one line (never throws: logging must not take the daemon down). */
  write(line: string): void {
    try {
      const bytes = this.#encoder.encode(line.endsWith("\n") ? line : `${line}\n`);
      if (this.#size + bytes.length > this.options.maxBytes && this.#size > 0) this.#rotate();
      let rest = bytes;
      while (rest.length) rest = rest.subarray(this.#file!.writeSync(rest));
      this.#size += bytes.length;
    } catch { /* disk full or file gone: stderr still has the line */ }
  }

  /** Closes the file. */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }

  #open(): void {
    this.#file = Deno.openSync(this.path, { append: true, create: true, mode: 0o600 });
    this.#size = this.#file.statSync().size;
  }

  #rotate(): void {
    this.close();
    for (let index = this.options.keep - 1; index >= 1; index--) {
      try {
        Deno.renameSync(`${this.path}.${index}`, `${this.path}.${index + 1}`);
      } catch { /* no such generation yet */ }
    }
    Deno.renameSync(this.path, `${this.path}.1`);
    this.#open();
  }
}

/** The last `count` lines of a file (reads only its tail). */
export function lastLines(path: string, count: number): string[] {
  if (count <= 0) return [];
  const file = Deno.openSync(path, { read: true });
  try {
    const size = file.statSync().size;
    let start = size;
    let text = "";
    const chunk = 64 * 1024;
    while (start > 0) {
      const from = Math.max(0, start - chunk);
      text = new TextDecoder().decode(readAt(file, from, start - from)) + text;
      start = from;
      if (text.split("\n").length > count + 1) break;
    }
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.slice(-count);
  } finally {
    file.close();
  }
}

/**
 * Follows a log file like `tail -f`: calls `onText` with new text until `signal` aborts.
 * A shrinking file (rotation) is read again from the start. `sleep` is injected for tests.
 */
export async function followFile(
  path: string,
  from: number,
  onText: (text: string) => void,
  options: { signal: AbortSignal; sleep: (ms: number) => Promise<void> },
): Promise<void> {
  let offset = from;
  const decoder = new TextDecoder();
  while (!options.signal.aborted) {
    let size = offset;
    try {
      size = Deno.statSync(path).size;
    } catch { /* rotated away for a moment */ }
    if (size < offset) offset = 0;
    if (size > offset) {
      const file = Deno.openSync(path, { read: true });
      try {
        const bytes = readAt(file, offset, size - offset);
        offset += bytes.length;
        onText(decoder.decode(bytes, { stream: true }));
      } finally {
        file.close();
      }
    }
    await options.sleep(500);
  }
}

/** Up to `length` bytes of an open file from `from` (fewer where the file ends sooner). */
function readAt(file: Deno.FsFile, from: number, length: number): Uint8Array {
  file.seekSync(from, Deno.SeekMode.Start);
  const buffer = new Uint8Array(length);
  let read = 0;
  while (read < buffer.length) {
    const count = file.readSync(buffer.subarray(read));
    if (count === null) break;
    read += count;
  }
  return buffer.subarray(0, read);
}
