/**
 * One reconcile of a watched folder: its listing compared with the ledger. Files the ledger does
 * not know (or, when fingerprints are compared, that changed) are recorded to settle like any
 * event's file; stored files that are gone are forgotten. The stored files are read once (a page
 * at a time); the listing comes a chunk at a time, and the event loop runs between chunks.
 */
import type { SeenFile, WatchLedger } from "../sources/watched_folders.ts";
import { listMatchingFiles, statFile, yieldToEventLoop } from "./folder_listing.ts";

/** What one reconcile looks at. */
export interface ReconcileRequest {
  folder: string;
  recursive: boolean;
  matcher: RegExp;
  ledger: WatchLedger;
  /**
   * Stat every listed file and re-settle changed ones (start, dropped events, bursts); false
   * compares names only and stats just the unknown ones (the cheap idle check).
   */
  compareFingerprints: boolean;
  /** The first reconcile of a folder ever records its content as the baseline (no events). */
  baseline: boolean;
  /** Wall-clock milliseconds for the stored rows. */
  now: () => number;
  /** Paths listed and compared per step. */
  chunk?: number;
}

/** What one reconcile did. */
export interface ReconcileOutcome {
  /** Files listed. */
  listed: number;
  /** Files the ledger did not know, now recorded (to settle, or as the baseline). */
  found: number;
  /** Stored files that are gone, now forgotten. */
  forgotten: number;
}

/** Compares the folder with its ledger (see the module comment). */
export async function reconcileFolder(request: ReconcileRequest): Promise<ReconcileOutcome> {
  const { ledger } = request;
  // What is left in `unlisted` at the end was stored but not listed: gone, or arrived late.
  const unlisted = ledger.known();
  let listed = 0;
  let found = 0;
  for await (
    const chunk of listMatchingFiles(request.folder, {
      recursive: request.recursive,
      matcher: request.matcher,
      chunk: request.chunk,
    })
  ) {
    listed += chunk.length;
    const changed: SeenFile[] = [];
    for (const path of chunk) {
      const before = unlisted.get(path);
      unlisted.delete(path);
      if (before && !request.compareFingerprints) continue;
      const file = statFile(path);
      if (!file) continue;
      if (before && before.size === file.size && before.mtimeMs === file.mtimeMs) continue;
      changed.push(file);
    }
    if (changed.length) {
      found += ledger.record(changed, request.now(), { baseline: request.baseline });
    }
  }
  const gone: string[] = [];
  let looked = 0;
  for (const path of unlisted.keys()) {
    // Not listed but there: it arrived after its folder was listed (its event records it).
    if (!statFile(path)) gone.push(path);
    if (++looked % 2_000 === 0) await yieldToEventLoop();
  }
  if (gone.length) ledger.forget(gone);
  return { listed, found, forgotten: gone.length };
}
