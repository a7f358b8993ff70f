/** Reading and crafting backup archives in tests (npm tar-stream, as Radar itself uses). */
import { createGunzip, createGzip } from "node:zlib";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { extract, pack } from "../../../src/adapters/backup/tar_stream.ts";
import type { BackupManifest } from "../../../src/adapters/backup/backup_manifest.ts";

/** Every entry of an archive, in order: name → bytes and text. */
export async function readArchive(
  path: string,
): Promise<Map<string, { bytes: Uint8Array; text: string; type: string }>> {
  const entries = new Map<string, { bytes: Uint8Array; text: string; type: string }>();
  const reader = extract();
  const gunzip = createGunzip();
  gunzip.end(Deno.readFileSync(path));
  gunzip.pipe(reader as unknown as NodeJS.WritableStream);
  for await (const entry of reader) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of entry) chunks.push(chunk);
    const bytes = new Uint8Array(Buffer.concat(chunks));
    entries.set(entry.header.name, {
      bytes,
      text: new TextDecoder().decode(bytes),
      type: entry.header.type ?? "file",
    });
  }
  return entries;
}

/** One entry of a crafted archive. */
export interface CraftedEntry {
  name: string;
  bytes?: Uint8Array;
  type?: "file" | "directory" | "symlink" | "link" | "character-device" | "fifo";
  linkname?: string;
  /** A manifest listing every file entry before it with its real size and sum. */
  manifestFor?: Omit<BackupManifest, "files"> & { files?: unknown };
  /** Manifest lines that replace (by path) or add to the computed ones. */
  extraFiles?: BackupManifest["files"];
}

/** Writes a gzipped tar with exactly `entries` (hostile ones included) to `path`. */
export async function craftArchive(path: string, entries: CraftedEntry[]): Promise<void> {
  const writer = pack();
  const gzip = createGzip();
  writer.pipe(gzip);
  const chunks: Uint8Array[] = [];
  const done = (async () => {
    for await (const chunk of gzip) chunks.push(chunk as Uint8Array);
  })();
  const files: BackupManifest["files"] = [];
  for (const entry of entries) {
    let bytes = entry.bytes;
    if (entry.manifestFor) {
      const listed = new Map(files.map((file) => [file.path, file]));
      for (const extra of entry.extraFiles ?? []) listed.set(extra.path, extra);
      bytes = new TextEncoder().encode(
        JSON.stringify({ ...entry.manifestFor, files: [...listed.values()] }),
      );
    }
    const type = entry.type ?? "file";
    await new Promise<void>((resolve, reject) =>
      writer.entry(
        { name: entry.name, type, linkname: entry.linkname, mode: 0o600 },
        type === "file" ? Buffer.from(bytes ?? new Uint8Array()) : undefined,
        (error) => error ? reject(error) : resolve(),
      )
    );
    if (type === "file" && !entry.manifestFor && entry.name.startsWith("radar-backup/")) {
      files.push({
        path: entry.name.slice("radar-backup/".length),
        size: bytes?.length ?? 0,
        sha256: createHash("sha256").update(bytes ?? new Uint8Array()).digest("hex"),
      });
    }
  }
  writer.finalize();
  await done;
  Deno.writeFileSync(path, new Uint8Array(Buffer.concat(chunks)));
}
