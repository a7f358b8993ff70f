/** Each feature's first use, timed (filled in below). */
import type { BenchLine } from "./index.ts";

/** The feature lines. */
export function featureFirstUse(): Promise<BenchLine[]> {
  return Promise.resolve([]);
}
