/** A WritableStream that keeps at most `limit` bytes and fails past it (bombs stop here). */
import { concatBytes } from "../../core/bytes.ts";

/** An entry larger than allowed. */
export class TooLargeError extends Error {
  override name = "TooLargeError";
  constructor(size: number, limit: number) {
    super(`an entry of ${size} bytes is over the limit of ${limit} bytes`);
  }
}

/** Collects written chunks up to `limit` bytes. */
export class BoundedSink {
  #chunks: Uint8Array[] = [];
  #size = 0;
  readonly writable: WritableStream<Uint8Array>;

  constructor(limit: number) {
    this.writable = new WritableStream({
      write: (chunk) => {
        this.#size += chunk.length;
        if (this.#size > limit) throw new TooLargeError(this.#size, limit);
        this.#chunks.push(chunk.slice());
      },
    });
  }

  /** Everything written. */
  bytes(): Uint8Array {
    return concatBytes(this.#chunks);
  }
}
