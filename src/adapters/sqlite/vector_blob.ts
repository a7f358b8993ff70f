/** Embedding vectors as SQLite blobs: little-endian float32, four bytes per dimension. */

/** Numbers → float32 bytes. */
export function toVectorBlob(vector: readonly number[]): Uint8Array {
  return new Uint8Array(new Float32Array(vector).buffer);
}

/** Float32 bytes → numbers (undefined for a damaged blob). */
export function fromVectorBlob(bytes: Uint8Array): number[] | undefined {
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
  const copy = bytes.slice();
  return [...new Float32Array(copy.buffer, 0, copy.byteLength / 4)];
}
