/**
 * A real Deno.watchFs whose events for some paths never arrive and, optionally, whose `rescan`
 * flags are swallowed: the silent loss issue 26 measured (a raw watcher saw 4,100 of 5,000 new
 * files and no flag). On Linux, Deno 2.9.6 flags every overflow of its own queue, so a test that
 * needs the silent kind applies it here, on top of the real OS stream.
 */
import type { WatchFs } from "../../src/adapters/file_watcher.ts";

/** What the wrapped stream let through and what it dropped. */
export interface StreamCounts {
  /** Events handed to the watcher. */
  delivered: number;
  /** Events (or their paths) dropped, rescan flags included. */
  dropped: number;
}

/** A `WatchFs` over the real one: `lose(path)` paths vanish; `swallowRescan` hides overflow. */
export function lossyWatchFs(
  options: { lose?: (path: string) => boolean; swallowRescan?: boolean } = {},
  counts: StreamCounts = { delivered: 0, dropped: 0 },
): WatchFs {
  const lose = options.lose ?? (() => false);
  return (folder, recursive) => {
    const real = Deno.watchFs(folder, { recursive });
    return {
      close: () => real.close(),
      async *[Symbol.asyncIterator]() {
        for await (const event of real) {
          if (event.flag === "rescan" && options.swallowRescan) {
            counts.dropped++;
            continue;
          }
          const paths = event.flag === "rescan" ? event.paths : event.paths.filter((p) => !lose(p));
          if (!paths.length) {
            counts.dropped++;
            continue;
          }
          counts.delivered++;
          yield { ...event, paths };
        }
      },
    };
  };
}

/** Waits until the stream has been quiet for `quietMs` (the OS delivers events in real time). */
export async function untilStreamQuiet(
  counts: StreamCounts,
  quietMs = 300,
  seconds = 60,
): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  let last = -1;
  let since = performance.now();
  while (performance.now() < deadline) {
    const total = counts.delivered + counts.dropped;
    if (total !== last) {
      last = total;
      since = performance.now();
    } else if (performance.now() - since >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the OS event stream never went quiet");
}
