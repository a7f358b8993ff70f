/**
 * The plugin lifecycle: install → pending_review → approve (records the files' hash and the
 * granted permissions) → available + enabled; reject → failed; disable, rollback, remove, test.
 * An approved plugin whose files changed goes back to review with a permission diff. Only
 * plugins that are enabled AND whose files match an approval are ever loaded.
 */
import { join } from "node:path";
import type { RadarConfig } from "../config/schema.ts";
import { RadarError } from "../core/errors.ts";
import type { Clock } from "../core/ports.ts";
import {
  canonicalGrant,
  diffGrants,
  type GrantDiff,
  intersectGrants,
  type PluginGrant,
  requestedGrant,
} from "../sandbox/permissions.ts";
import {
  ensurePluginDirectories,
  exists,
  folderNames,
  moveFolder,
  type PluginDirectories,
  pluginDirectories,
  removePath,
  reservedNames,
  writeFolder,
} from "./plugin_directories.ts";
import { pluginCode, type PluginFolder, readPluginFolder } from "./plugin_files.ts";
import type {
  PluginApproval,
  PluginRecords,
  PluginReview,
  PluginTestOutcome,
} from "./plugin_records.ts";
import { parseTests, runPluginTests } from "./plugin_tests.ts";

/** Where a plugin stands. */
export type PluginStatus = "pending_review" | "enabled" | "disabled" | "failed";

/** One row of `radar plugin list`. */
export interface PluginSummary {
  name: string;
  version: string;
  trustLevel: "sandbox" | "local" | "?";
  tools: string[];
  status: PluginStatus;
  description: string;
}

/** An enabled plugin whose files match an approval, with the grant it runs with. */
export interface LoadedPlugin {
  folder: PluginFolder;
  grant: PluginGrant;
  approval: PluginApproval;
}

/** What the manager needs. */
export interface PluginManagerOptions {
  dataDir: string;
  records: PluginRecords;
  config: RadarConfig["plugins"];
  env: Record<string, string | undefined>;
  clock: Clock;
}

/** Thrown for lifecycle requests that cannot be done; one readable line (exit code 1). */
export class PluginError extends RadarError {
  override name = "PluginError";
}

/** Runs the plugin lifecycle on the data directory's plugin folders. */
export class PluginManager {
  readonly dirs: PluginDirectories;
  readonly home: string;
  #options: PluginManagerOptions;

  constructor(options: PluginManagerOptions) {
    this.#options = options;
    this.dirs = pluginDirectories(options.dataDir);
    this.home = options.env.HOME || options.env.USERPROFILE || "/";
    ensurePluginDirectories(this.dirs);
  }

  /** Every plugin in every lifecycle folder. */
  list(): PluginSummary[] {
    const rows: PluginSummary[] = [];
    const add = (dir: string, status: (name: string) => PluginStatus) => {
      for (const name of folderNames(dir)) {
        const result = readPluginFolder(join(dir, name));
        const manifest = result.ok ? result.folder.manifest : undefined;
        rows.push({
          name,
          version: manifest?.version ?? "?",
          trustLevel: manifest?.trust_level ?? "?",
          tools: manifest?.tools.map((tool) => tool.name) ?? [],
          status: status(name),
          description: manifest?.description ?? (result.ok ? "" : result.errors[0]),
        });
      }
    };
    add(
      this.dirs.available,
      (name) => exists(join(this.dirs.enabled, name)) ? "enabled" : "disabled",
    );
    add(this.dirs.pending, () => "pending_review");
    add(this.dirs.failed, () => "failed");
    return rows;
  }

  /** The grant a folder asks for, resolved as if it ran from available/NAME. */
  requestedGrantOf(folder: PluginFolder): PluginGrant {
    const result = requestedGrant(folder.manifest, {
      home: this.home,
      pluginDir: join(this.dirs.available, folder.name),
    });
    if (!result.ok) {
      throw new PluginError(`Cannot use plugin ${folder.name}: ${result.errors.join("; ")}`);
    }
    return canonicalGrant(canonicalizePaths(result.grant));
  }

  /** The permission change a pending plugin asks for compared with its last approval. */
  permissionDiff(folder: PluginFolder): GrantDiff | undefined {
    const approved = this.#options.records.latestApproval(folder.name);
    return approved ? diffGrants(approved.grant, this.requestedGrantOf(folder)) : undefined;
  }

  /** Reads a plugin from a lifecycle folder (pending first, then available, then failed). */
  read(name: string): { folder?: PluginFolder; errors: string[]; location: string } {
    for (const dir of [this.dirs.pending, this.dirs.available, this.dirs.failed]) {
      const path = join(dir, name);
      if (!exists(path)) continue;
      const result = readPluginFolder(path);
      return result.ok
        ? { folder: result.folder, errors: [], location: path }
        : { errors: result.errors, location: path };
    }
    throw new PluginError(`Cannot find plugin ${name}: not installed (see radar plugin list)`);
  }

  /**
   * Validates a folder and files it for review: pending_review when valid, failed (with
   * errors.txt) when not. Returns the review state.
   */
  install(path: string, source: PluginReview["source"] = "install"): PluginReview {
    const result = readPluginFolder(path);
    const name = path.replace(/\/+$/, "").split("/").at(-1) ?? "";
    if (!/^[a-z][a-z0-9_]{0,47}$/.test(name) || reservedNames.includes(name)) {
      throw new PluginError(`Cannot install ${path}: "${name}" is not a valid plugin name`);
    }
    const now = this.#options.clock.now().toISOString();
    const previous = this.#options.records.getReview(name);
    if (!result.ok) {
      const files = safeFiles(path);
      writeFolder(join(this.dirs.failed, name), {
        ...files,
        "errors.txt": result.errors.join("\n"),
      });
      const review = {
        name,
        source,
        filesHash: "",
        errors: result.errors,
        tests: [],
        attempts: previous?.attempts ?? 0,
        updatedAt: now,
      };
      this.#options.records.saveReview(review);
      return review;
    }
    this.requestedGrantOf(result.folder);
    writeFolder(join(this.dirs.pending, name), result.folder.files);
    removePath(join(this.dirs.failed, name));
    const review: PluginReview = {
      name,
      source,
      filesHash: result.folder.hash,
      errors: [],
      tests: [],
      attempts: previous?.attempts ?? 0,
      updatedAt: now,
    };
    this.#options.records.saveReview(review);
    return review;
  }

  /**
   * Approves the pending plugin: records its files' hash and granted permissions, keeps a copy in
   * versions/, moves it to available/ and enables it.
   */
  approve(name: string, approvedBy: "user" | "tests_passed" = "user"): PluginFolder {
    const path = join(this.dirs.pending, name);
    if (!exists(path)) throw new PluginError(`Cannot approve ${name}: it is not pending review`);
    const result = readPluginFolder(path);
    if (!result.ok) throw new PluginError(`Cannot approve ${name}: ${result.errors.join("; ")}`);
    const folder = result.folder;
    if (approvedBy !== "user" && folder.manifest.trust_level !== "sandbox") {
      throw new PluginError(`Cannot auto-approve ${name}: local plugins need a person's approval`);
    }
    this.#options.records.addApproval({
      name,
      version: folder.manifest.version,
      filesHash: folder.hash,
      trustLevel: folder.manifest.trust_level,
      grant: this.requestedGrantOf(folder),
      approvedBy,
      approvedAt: this.#options.clock.now().toISOString(),
    });
    writeFolder(join(this.dirs.versions, name, folder.manifest.version), folder.files);
    moveFolder(path, join(this.dirs.available, name));
    this.enable(name);
    return folder;
  }

  /** Rejects a pending plugin: it moves to failed/ with the reason. */
  reject(name: string, reason = "rejected by the user"): void {
    const path = join(this.dirs.pending, name);
    if (!exists(path)) throw new PluginError(`Cannot reject ${name}: it is not pending review`);
    moveFolder(path, join(this.dirs.failed, name));
    Deno.writeTextFileSync(join(this.dirs.failed, name, "errors.txt"), `${reason}\n`);
  }

  /** Enables an approved plugin. */
  enable(name: string): void {
    if (!exists(join(this.dirs.available, name))) {
      throw new PluginError(`Cannot enable ${name}: it is not approved (see radar plugin list)`);
    }
    const link = join(this.dirs.enabled, name);
    removePath(link);
    Deno.symlinkSync(join("..", "available", name), link);
  }

  /** Disables a plugin (it stays approved). */
  disable(name: string): void {
    if (!exists(join(this.dirs.enabled, name))) {
      throw new PluginError(`Cannot disable ${name}: it is not enabled`);
    }
    removePath(join(this.dirs.enabled, name));
  }

  /** Puts a previously approved version back in place (it must match its approval). */
  rollback(name: string, version: string): PluginFolder {
    const path = join(this.dirs.versions, name, version);
    if (!/^\d+\.\d+\.\d+$/.test(version) || !exists(path)) {
      const known = folderNames(join(this.dirs.versions, name)).join(", ") || "none";
      throw new PluginError(`Cannot roll ${name} back to ${version}: known versions: ${known}`);
    }
    const result = readPluginFolder(path, name);
    if (!result.ok || !this.#options.records.findApproval(name, result.folder.hash)) {
      throw new PluginError(
        `Cannot roll ${name} back to ${version}: that copy no longer matches its approval`,
      );
    }
    writeFolder(join(this.dirs.available, name), result.folder.files);
    this.enable(name);
    return result.folder;
  }

  /** Removes a plugin everywhere and revokes its approvals. */
  remove(name: string): void {
    const places = [
      this.dirs.enabled,
      this.dirs.available,
      this.dirs.pending,
      this.dirs.failed,
      this.dirs.versions,
    ]
      .map((dir) => join(dir, name));
    if (!places.some(exists)) throw new PluginError(`Cannot remove ${name}: not installed`);
    for (const place of places) removePath(place);
    this.#options.records.revokeApprovals(name, this.#options.clock.now());
    this.#options.records.deleteReview(name);
  }

  /** Runs tests.yaml of a plugin: with its approved grant, else with no permissions at all. */
  async test(name: string): Promise<PluginTestOutcome[]> {
    const { folder, errors } = this.read(name);
    if (!folder) throw new PluginError(`Cannot test ${name}: ${errors.join("; ")}`);
    const text = folder.files["tests.yaml"];
    if (text === undefined) throw new PluginError(`Cannot test ${name}: it has no tests.yaml`);
    const approval = this.#options.records.findApproval(name, folder.hash);
    const grant = approval
      ? intersectGrants(this.requestedGrantOf(folder), approval.grant)
      : undefined;
    const outcomes = await runPluginTests(
      pluginCode(folder),
      parseTests(text),
      grant ?? emptyGrantCopy(),
      this.limits(),
    );
    const review = this.#options.records.getReview(name);
    if (review && review.filesHash === folder.hash) {
      this.#options.records.saveReview({
        ...review,
        tests: outcomes,
        updatedAt: this.#options.clock.now().toISOString(),
      });
    }
    return outcomes;
  }

  /** Limits every plugin host runs with, from config. */
  limits() {
    const config = this.#options.config;
    return {
      callTimeoutMs: config.call_timeout_seconds * 1000,
      memoryMb: config.memory_mb,
      maxResultChars: config.max_result_chars,
      env: this.#options.env,
    };
  }

  /**
   * Picks up folder changes: inbox folders dropped into `<data>/plugins/` go to review, and an
   * approved plugin whose files changed goes back to review (disabled). Returns what happened.
   */
  sync(): string[] {
    const changes: string[] = [];
    for (const name of folderNames(this.dirs.root)) {
      if (reservedNames.includes(name)) continue;
      const inbox = join(this.dirs.root, name);
      try {
        const review = this.install(inbox, "folder");
        changes.push(
          review.errors.length
            ? `${name}: invalid (${review.errors[0]})`
            : `${name}: waiting for review`,
        );
      } catch (error) {
        changes.push(`${name}: ${(error as Error).message}`);
      }
      removePath(inbox);
    }
    for (const name of folderNames(this.dirs.available)) {
      const path = join(this.dirs.available, name);
      const result = readPluginFolder(path);
      if (result.ok && this.#options.records.findApproval(name, result.folder.hash)) continue;
      removePath(join(this.dirs.enabled, name));
      if (result.ok) {
        moveFolder(path, join(this.dirs.pending, name));
        this.#options.records.saveReview({
          name,
          source: "changed",
          filesHash: result.folder.hash,
          errors: [],
          tests: [],
          attempts: 0,
          updatedAt: this.#options.clock.now().toISOString(),
        });
        changes.push(`${name}: files changed since approval, back to review`);
      } else {
        writeFolder(join(this.dirs.failed, name), { "errors.txt": result.errors.join("\n") });
        removePath(path);
        changes.push(`${name}: no longer valid (${result.errors[0]})`);
      }
    }
    return changes;
  }

  /** Enabled plugins whose files match an approval, each with its effective grant. */
  loadEnabled(): LoadedPlugin[] {
    const loaded: LoadedPlugin[] = [];
    for (const name of folderNames(this.dirs.enabled)) {
      const result = readPluginFolder(join(this.dirs.available, name));
      if (!result.ok) continue;
      const approval = this.#options.records.findApproval(name, result.folder.hash);
      if (!approval) continue;
      let requested: PluginGrant;
      try {
        requested = this.requestedGrantOf(result.folder);
      } catch {
        continue;
      }
      loaded.push({
        folder: result.folder,
        grant: intersectGrants(requested, approval.grant),
        approval,
      });
    }
    return loaded;
  }
}

/** Resolves symbolic links in granted paths that exist (a grant names real folders). */
function canonicalizePaths(grant: PluginGrant): PluginGrant {
  const real = (path: string) => {
    try {
      return Deno.realPathSync(path);
    } catch {
      return path;
    }
  };
  return { ...grant, read: grant.read.map(real), write: grant.write.map(real) };
}

function emptyGrantCopy(): PluginGrant {
  return { read: [], write: [], net: [], env: [] };
}

/** Best-effort copy of a folder's regular text files (for failed/ diagnostics). */
function safeFiles(path: string): Record<string, string> {
  const files: Record<string, string> = {};
  try {
    for (const entry of Deno.readDirSync(path)) {
      if (!entry.isFile || !/^[\w.-]+$/.test(entry.name)) continue;
      const data = Deno.readFileSync(join(path, entry.name));
      if (data.length < 200_000) files[entry.name] = new TextDecoder().decode(data);
    }
  } catch { /* nothing readable */ }
  return files;
}
