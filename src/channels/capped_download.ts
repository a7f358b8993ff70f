/** Downloading a file sent to Radar: never more than the cap, every failure one line. */
import { readCapped } from "../adapters/network/bounded_read.ts";
import { firstLine } from "../core/errors.ts";

/** Throws when a known size is over the cap. */
export function checkSize(size: number | undefined, maxBytes: number): void {
  if (size !== undefined && size > maxBytes) {
    throw new Error(
      `the file is larger than ${Math.floor(maxBytes / 1024 / 1024)} MiB (${
        (size / 1024 / 1024).toFixed(1)
      } MiB)`,
    );
  }
}

/**
 * GETs `url` and reads at most `maxBytes`; throws one line naming `what` (never the URL, which may
 * carry a token).
 */
export async function fetchCapped(
  fetcher: typeof fetch,
  url: string,
  init: RequestInit,
  maxBytes: number,
  what: string,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetcher(url, init);
  } catch (error) {
    throw new Error(`${what} failed: ${firstLine(error).replaceAll(url, "…")}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${what} failed: HTTP ${response.status}`);
  }
  const { bytes, cut } = await readCapped(response, maxBytes);
  if (cut) checkSize(maxBytes + 1, maxBytes);
  return bytes;
}
