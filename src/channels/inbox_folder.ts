/**
 * The inbox folder: files sent to Radar in a chat land here under a safe name (the sender's name
 * is untrusted: no folders, no dot files, no control characters, never over an existing file),
 * and a file sent without words becomes the same heartbeat event a watched folder's new file does
 * (`file_added`), so the same skills and grants file it; its content stays untrusted.
 */
import { join } from "node:path";
import type { EventQueue } from "../core/work_ports.ts";
import type { InboundRecord } from "../core/channel_stores.ts";
import { byteSizeText } from "../core/bytes.ts";

/** A file written to the inbox. */
export interface SavedFile {
  path: string;
  size: number;
}

/** A file name made safe: the last path part, printable, not hidden, at most 120 characters. */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  // deno-lint-ignore no-control-regex
  const cleaned = last.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "_").replace(/^[.\s]+/, "").trim();
  const bounded = cleaned.length > 120
    ? `${cleaned.slice(0, 100)}${cleaned.slice(cleaned.lastIndexOf(".")).slice(0, 20)}`
    : cleaned;
  return bounded || "file";
}

/** Writes `bytes` into `folder` under a free name; queues its event when `announce`. */
export function saveToInbox(
  options: { folder: string; queue: Pick<EventQueue, "enqueue">; now: Date },
  record: InboundRecord,
  name: string,
  bytes: Uint8Array,
  announce: boolean,
): SavedFile {
  Deno.mkdirSync(options.folder, { recursive: true, mode: 0o700 });
  const safe = safeFileName(name);
  const dot = safe.lastIndexOf(".");
  const stem = dot > 0 ? safe.slice(0, dot) : safe;
  const extension = dot > 0 ? safe.slice(dot) : "";
  for (let attempt = 1;; attempt++) {
    const path = join(options.folder, attempt === 1 ? safe : `${stem}-${attempt}${extension}`);
    try {
      Deno.writeFileSync(path, bytes, { createNew: true, mode: 0o600 });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists && attempt < 1000) continue;
      throw error;
    }
    if (announce) {
      options.queue.enqueue({
        source: `channel ${record.channel}`,
        kind: "file_added",
        summary: `${safe} (${
          byteSizeText(bytes.length)
        }) at ${path}, sent by the owner on ${record.channel}`,
        dedupeKey: `file:${path}`,
      }, options.now);
    }
    return { path, size: bytes.length };
  }
}
