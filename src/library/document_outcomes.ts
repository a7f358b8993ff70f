/**
 * What the document ports (PDFs, comic archives) share: their work runs on untrusted bytes in a
 * killable subprocess, so they fail the same ways, and they write metadata into a new copy.
 */

/** How reading or writing a document failed (never thrown: a result). */
export type DocumentFailure =
  | { status: "broken"; message: string }
  | { status: "timeout"; seconds: number }
  | { status: "failed"; message: string };

/** Writes metadata `Field`s into a new copy of a document (the original bytes in, a new file out). */
export interface MetadataWriteRequest<Field extends string> {
  input: ReadableStream<Uint8Array>;
  size: number;
  /** New values; null removes the field (other fields and the content stay as they were). */
  changes: Partial<Record<Field, string | null>>;
  /** Where the new file's bytes go (a temporary file beside the original). */
  output: WritableStream<Uint8Array>;
  signal?: AbortSignal;
}
