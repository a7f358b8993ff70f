/**
 * npm tar-stream (a streaming tar writer and parser), loaded with a literal `import()` by the
 * backup and restore code only: no other command pays for it. The interfaces below are the part
 * of its API Radar uses, typed for byte chunks (its own types say `unknown`).
 */
import tar from "tar-stream";

/** A tar header (tar-stream's names). */
export interface Headers {
  name: string;
  size?: number;
  mode?: number;
  mtime?: Date;
  /** "file", "directory", "symlink", "link", "character-device", "fifo", … */
  type?: string | null;
  linkname?: string | null;
}

/** One entry being written. */
export interface EntryWriter {
  write(chunk: Uint8Array): boolean;
  end(): void;
  once(event: "drain", listener: () => void): void;
  destroy(error?: Error): void;
}

/** A tar writer; its bytes are read by piping it on (into gzip). */
export interface Pack {
  entry(
    headers: Headers,
    content: Uint8Array | undefined,
    callback: (error?: Error | null) => void,
  ): EntryWriter;
  entry(headers: Headers, callback: (error?: Error | null) => void): EntryWriter;
  finalize(): void;
  pipe<T extends NodeJS.WritableStream>(destination: T): T;
  destroy(error?: Error): void;
}

/** One entry being read: its header and its bytes. */
export interface EntryReader extends AsyncIterable<Uint8Array> {
  header: Headers;
  resume(): void;
}

/** A tar reader: written with the archive's bytes, iterated as entries. */
export interface Extract extends AsyncIterable<EntryReader> {
  destroy(error?: Error): void;
}

/** A tar writer. */
export const pack = tar.pack as unknown as () => Pack;
/** A tar reader. */
export const extract = tar.extract as unknown as () => Extract;
