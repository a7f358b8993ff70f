/** Bounded reads of web response bodies: never more than a cap in memory. */
import { concatBytes } from "../../core/bytes.ts";

/** Reads at most `maxBytes` of the (already decompressed) body, then cancels the stream. */
export async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > maxBytes) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  return { bytes: concatBytes(chunks), cut };
}

/** `2 MiB`, `512 KiB`. */
export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes / 1024} KiB`;
}
