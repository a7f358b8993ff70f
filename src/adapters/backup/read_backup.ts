/**
 * Reads a backup archive into a fresh staging folder, treating it as hostile: only regular files
 * and folders at the paths a backup holds (no links, devices, `..`, absolute or odd names), within
 * count and size limits checked before and while reading, and every file exactly as the manifest
 * lists it (size and SHA-256). Anything else refuses the whole archive; nothing is written outside
 * the staging folder.
 */
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { RadarError } from "../../core/errors.ts";
import { concatBytes } from "../../core/bytes.ts";
import {
  allowedArchivePath,
  archiveRoot,
  type BackupManifest,
  backupManifest,
  databaseName,
  manifestName,
} from "./backup_manifest.ts";

/** How much an archive may hold. */
export interface RestoreLimits {
  maxEntries: number;
  /** Any file but the database. */
  maxFileBytes: number;
  maxDatabaseBytes: number;
  /** All files together, as unpacked (a gzip bomb stops here). */
  maxTotalBytes: number;
  maxManifestBytes: number;
}

/** The limits `radar restore` applies. */
export const defaultRestoreLimits: RestoreLimits = {
  maxEntries: 20_000,
  maxFileBytes: 256 * 1024 * 1024,
  maxDatabaseBytes: 32 * 1024 * 1024 * 1024,
  maxTotalBytes: 40 * 1024 * 1024 * 1024,
  maxManifestBytes: 8 * 1024 * 1024,
};

/** A refused or unreadable archive: one line, exit 1. */
function refused(archive: string, why: string, cause?: unknown): RadarError {
  return new RadarError(`Cannot restore from ${archive}: ${why}`, 1, { cause });
}

/** Unpacks `archive` into `staging` (an empty folder) and returns its checked manifest. */
export async function extractBackup(
  archive: string,
  staging: string,
  limits: RestoreLimits = defaultRestoreLimits,
): Promise<BackupManifest> {
  const { extract: createExtract }: typeof import("./tar_stream.ts") = await import(
    new URL("./tar_stream.ts", import.meta.url).href
  );
  const prefix = `${archiveRoot}/`;
  const written = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | undefined;
  let entries = 0;
  let total = 0;
  const source = createReadStream(archive);
  const gunzip = createGunzip();
  const extract = createExtract();
  const fail = (error: Error) => extract.destroy(error);
  source.on("error", fail);
  gunzip.on("error", fail);
  source.pipe(gunzip).pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) {
      const header = entry.header;
      if (++entries > limits.maxEntries) {
        throw refused(archive, `it holds more than ${limits.maxEntries} entries`);
      }
      const name = header.name;
      if (!name.startsWith(prefix) && name !== archiveRoot) {
        throw refused(archive, `"${printable(name)}" is outside ${prefix} (not a Radar backup?)`);
      }
      const path = name.slice(prefix.length).replace(/\/$/, "");
      if (header.type === "directory") {
        if (path && path !== "data" && !allowedArchivePath(path)) {
          throw refused(archive, `it holds a folder Radar never writes: ${printable(name)}`);
        }
        if (path) Deno.mkdirSync(join(staging, path), { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      if (header.type !== "file") {
        throw refused(
          archive,
          `it holds a ${header.type ?? "special entry"} (${
            printable(name)
          }); only files and folders are restored`,
        );
      }
      if (!allowedArchivePath(path)) {
        throw refused(archive, `it holds a file Radar never writes: ${printable(name)}`);
      }
      if (written.has(path) || (path === manifestName && manifestText !== undefined)) {
        throw refused(archive, `it holds ${printable(name)} twice`);
      }
      const size = header.size ?? 0;
      const cap = path === databaseName
        ? limits.maxDatabaseBytes
        : path === manifestName
        ? limits.maxManifestBytes
        : limits.maxFileBytes;
      if (size > cap) throw refused(archive, `${printable(name)} is larger than ${cap} bytes`);
      total += size;
      if (total > limits.maxTotalBytes) {
        throw refused(archive, `it unpacks to more than ${limits.maxTotalBytes} bytes`);
      }
      if (path === manifestName) {
        const chunks: Uint8Array[] = [];
        for await (const chunk of entry) chunks.push(chunk);
        manifestText = new TextDecoder().decode(concatBytes(chunks));
        continue;
      }
      // Owner-only; an executable (a skill's script) stays executable for its owner.
      const mode = (header.mode ?? 0) & 0o100 ? 0o700 : 0o600;
      written.set(path, await writeEntry(entry, join(staging, path), mode));
    }
  } catch (error) {
    if (error instanceof RadarError) throw error;
    if (error instanceof Deno.errors.NotFound || (error as { code?: string }).code === "ENOENT") {
      throw new RadarError(`Cannot restore from ${archive}: no such file`, 3, { cause: error });
    }
    throw refused(
      archive,
      `it is not a readable backup archive (${(error as Error).message})`,
      error,
    );
  } finally {
    source.destroy();
  }
  return checkedManifest(archive, manifestText, written);
}

/** The manifest, parsed strictly and matching every file unpacked, and no other. */
function checkedManifest(
  archive: string,
  text: string | undefined,
  written: Map<string, { size: number; sha256: string }>,
): BackupManifest {
  if (text === undefined) throw refused(archive, `it has no ${manifestName} (not a Radar backup?)`);
  let manifest: BackupManifest;
  try {
    manifest = backupManifest.parse(JSON.parse(text));
  } catch (error) {
    throw refused(archive, `its ${manifestName} is not a Radar backup manifest`, error);
  }
  const listed = new Set<string>();
  for (const file of manifest.files) {
    const found = written.get(file.path);
    if (!found) throw refused(archive, `${file.path} is listed but missing`);
    if (found.size !== file.size || found.sha256 !== file.sha256) {
      throw refused(archive, `${file.path} does not match its SHA-256 sum (damaged or altered)`);
    }
    listed.add(file.path);
  }
  for (const path of written.keys()) {
    if (!listed.has(path)) throw refused(archive, `${path} is not in the manifest`);
  }
  if (!listed.has(databaseName)) throw refused(archive, `it holds no ${databaseName}`);
  return manifest;
}

/** Writes one entry to a new file (never over an existing one), hashing what it writes. */
async function writeEntry(
  entry: AsyncIterable<Uint8Array>,
  path: string,
  mode: number,
): Promise<{ size: number; sha256: string }> {
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const file = await Deno.open(path, { write: true, createNew: true, mode });
  const hash = createHash("sha256");
  let size = 0;
  try {
    for await (const chunk of entry) {
      hash.update(chunk);
      size += chunk.length;
      let done = 0;
      while (done < chunk.length) done += await file.write(chunk.subarray(done));
    }
  } finally {
    file.close();
  }
  return { size, sha256: hash.digest("hex") };
}

/** A name from the archive, safe to print on one line. */
function printable(name: string): string {
  return JSON.stringify(name.slice(0, 120)).slice(1, -1);
}
