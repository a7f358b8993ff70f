/**
 * `radar backup`: one consistent archive (gzipped tar, npm tar-stream) of Radar's state: SQLite's
 * online backup of radar.db (`backupDatabase`: one step, so a daemon writing meanwhile cannot make
 * it restart or tear; the MCP approvals' copies of config URLs and command lines cut like the config),
 * the data folder's plugins, skills and personalities, and the config without secret-shaped values
 * (`config_without_secrets.ts`); the manifest (sizes, SHA-256 sums, schema version, secrets left out) comes last.
 */
import { createHash } from "node:crypto";
import { createGzip } from "node:zlib";
import { Buffer } from "node:buffer";
import { basename, dirname, join } from "node:path";
import { RadarError } from "../../core/errors.ts";
import { writeAll } from "../os/file_changes.ts";
import { pathExists, removeQuietly } from "../os/quiet_fs.ts";
import { describeFailure, storageFailure } from "../sqlite/storage_failure.ts";
import {
  archiveRoot,
  type BackupManifest,
  configName,
  databaseName,
  dataFolders,
  manifestName,
} from "./backup_manifest.ts";
import { configWithoutSecrets } from "./config_without_secrets.ts";
import { withoutCopiedSecrets } from "../sqlite/backup_copy.ts";
import type { Pack } from "./tar_stream.ts";

/** What a backup is made of. */
export interface BackupSources {
  /** Writes a consistent copy of radar.db to a new file (`backupDatabase` on an open connection). */
  snapshotDatabase: (target: string) => Promise<unknown>;
  dataDir: string;
  /** The config file in use; absent when Radar runs on its defaults. */
  configPath?: string;
  radarVersion: string;
  now: Date;
}

/** What a finished backup holds. */
export interface BackupSummary {
  path: string;
  sizeBytes: number;
  files: number;
  databaseBytes: number;
  schemaVersion: number;
  secretsLeftOut: string[];
  secretsReferenced: string[];
  /** Paths not archived (symbolic links, sockets), relative to the data folder. */
  skipped: string[];
}

/** A file found in the data folder, to be archived. */
interface FoundFile {
  archivePath: string;
  path: string;
  size: number;
  mode: number;
  mtime: Date;
}

/** The plugin folder of enabled plugins: its entries are links, recreated on restore. */
const enabledPluginLinks = join("plugins", "enabled");

/** Writes a backup archive to `target` (which must not exist), owner-only. */
export async function writeBackup(sources: BackupSources, target: string): Promise<BackupSummary> {
  const { pack: createPack }: typeof import("./tar_stream.ts") = await import(
    new URL("./tar_stream.ts", import.meta.url).href
  );
  const partial = join(dirname(target), `.${basename(target)}.partial-${crypto.randomUUID()}`);
  const snapshotFolder = Deno.makeTempDirSync({ dir: sources.dataDir, prefix: ".backup-" });
  let output: Deno.FsFile | undefined;
  let streams: { destroy(error?: Error): void }[] = [];
  try {
    if (pathExists(target)) throw new Error("the file already exists (choose a new name)");
    output = Deno.openSync(partial, { write: true, createNew: true, mode: 0o600 });
    const snapshot = join(snapshotFolder, databaseName);
    await sources.snapshotDatabase(snapshot);
    withoutCopiedSecrets(snapshot);
    const schemaVersion = readUserVersion(snapshot);
    const config = sources.configPath ? readConfig(sources.configPath) : undefined;
    const { files, enabledPlugins, skipped } = dataFiles(sources.dataDir);

    const pack = createPack();
    const gzip = createGzip();
    streams = [pack, gzip];
    pack.pipe(gzip);
    const writer = output;
    const writing = (async () => {
      for await (const chunk of gzip) await writeAll(writer, chunk as Uint8Array);
    })();
    writing.catch(() => {}); // a failure is rethrown below where awaited, or ends with the streams
    const archived: BackupManifest["files"] = [];
    const add = async (file: FoundFile) => {
      const sha256 = await addFile(pack, file);
      archived.push({ path: file.archivePath, size: file.size, sha256 });
    };
    const snapshotInfo = Deno.statSync(snapshot);
    await add({
      archivePath: databaseName,
      path: snapshot,
      size: snapshotInfo.size,
      mode: 0o600,
      mtime: sources.now,
    });
    if (config) {
      const bytes = new TextEncoder().encode(config.text);
      await addBytes(pack, configName, bytes, sources.now);
      archived.push({ path: configName, size: bytes.length, sha256: sha256Hex(bytes) });
    }
    for (const file of files) await add(file);
    const manifest: BackupManifest = {
      format: "radar-backup",
      formatVersion: 1,
      radarVersion: sources.radarVersion,
      createdAt: sources.now.toISOString(),
      schemaVersion,
      configPath: sources.configPath,
      files: archived,
      enabledPlugins,
      secretsLeftOut: config?.leftOut ?? [],
      secretsReferenced: config?.referenced ?? [],
    };
    await addBytes(
      pack,
      manifestName,
      new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
      sources.now,
    );
    pack.finalize();
    await writing;
    output.syncSync();
    output.close();
    output = undefined;
    Deno.renameSync(partial, target);
    return {
      path: target,
      sizeBytes: Deno.statSync(target).size,
      files: archived.length,
      databaseBytes: snapshotInfo.size,
      schemaVersion,
      secretsLeftOut: manifest.secretsLeftOut,
      secretsReferenced: manifest.secretsReferenced,
      skipped,
    };
  } catch (error) {
    for (const stream of streams) stream.destroy();
    output?.close();
    removeQuietly(partial);
    if (error instanceof RadarError) throw error;
    throw new RadarError(
      `Cannot back up Radar to ${target}: ${describeFailure(storageFailure(error), error)}`,
      1,
      { cause: error },
    );
  } finally {
    removeQuietly(snapshotFolder);
  }
}

/** PRAGMA user_version from the file header (bytes 60–63), without opening the file. */
export function readUserVersion(path: string): number {
  const file = Deno.openSync(path);
  try {
    const header = new Uint8Array(100);
    const read = file.readSync(header) ?? 0;
    if (read < 100) return 0;
    return new DataView(header.buffer).getUint32(60);
  } finally {
    file.close();
  }
}

function readConfig(path: string) {
  const text = Deno.readTextFileSync(path);
  const config = configWithoutSecrets(text);
  if (!config) {
    throw new RadarError(`Cannot back up the config ${path}: it is not valid YAML (fix it first)`);
  }
  return config;
}

/** The plugins, skills and personalities folders' regular files; links are not followed. */
function dataFiles(dataDir: string) {
  const files: FoundFile[] = [];
  const enabledPlugins: string[] = [];
  const skipped: string[] = [];
  const walk = (relative: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(dataDir, relative))];
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      const inner = join(relative, entry.name);
      const info = Deno.lstatSync(join(dataDir, inner));
      if (info.isSymlink && relative === enabledPluginLinks) {
        enabledPlugins.push(entry.name);
      } else if (info.isDirectory) {
        walk(inner);
      } else if (info.isFile) {
        files.push({
          archivePath: `data/${inner}`,
          path: join(dataDir, inner),
          size: info.size,
          mode: (info.mode ?? 0o600) & 0o100 ? 0o700 : 0o600,
          mtime: info.mtime ?? new Date(0),
        });
      } else {
        skipped.push(inner);
      }
    }
  };
  for (const folder of dataFolders) walk(folder);
  return { files, enabledPlugins, skipped };
}

/** Streams one file into the archive; returns its SHA-256 (of exactly the bytes archived). */
function addFile(pack: Pack, file: FoundFile): Promise<string> {
  const hash = createHash("sha256");
  return new Promise<string>((resolve, reject) => {
    const entry = pack.entry(
      {
        name: `${archiveRoot}/${file.archivePath}`,
        size: file.size,
        mode: file.mode,
        mtime: file.mtime,
      },
      (error) => error ? reject(error) : resolve(hash.digest("hex")),
    );
    (async () => {
      const source = await Deno.open(file.path);
      for await (const chunk of source.readable) {
        hash.update(chunk);
        if (!entry.write(chunk)) await new Promise<void>((drained) => entry.once("drain", drained));
      }
      entry.end();
    })().catch((error) => {
      entry.destroy(error);
      reject(error);
    });
  });
}

function addBytes(pack: Pack, name: string, bytes: Uint8Array, mtime: Date): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    pack.entry(
      { name: `${archiveRoot}/${name}`, size: bytes.length, mode: 0o600, mtime },
      Buffer.from(bytes),
      (error) => error ? reject(error) : resolve(),
    );
  });
}

/** SHA-256 of bytes in hex. */
function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
