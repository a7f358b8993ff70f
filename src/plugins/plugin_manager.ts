/**
 * The plugin lifecycle: install → pending_review → approve (records the files' hash and the
 * granted permissions) → available + enabled; reject → failed; disable, rollback, remove, test,
 * and `sync` of folder changes. An approved plugin whose files changed goes back to review with a
 * permission diff. Only plugins that are enabled AND whose files match an approval are ever loaded
 * (`loadEnabled`, on the read side in plugin_inventory.ts).
 */
import { join } from "node:path";
import {
  folderNames,
  moveFolder,
  removePath,
  reservedNames,
  writeFolder,
} from "./plugin_directories.ts";
import { pathExists } from "../adapters/os/quiet_fs.ts";
import { pluginCode, type PluginFolder, readPluginFolder } from "./plugin_files.ts";
import { PluginError, PluginInventory, type PluginManagerOptions } from "./plugin_inventory.ts";
import { NotFoundError } from "../core/errors.ts";
import type { PluginReview, PluginTestOutcome } from "../core/plugin_state.ts";
import { parseTests, runPluginTests } from "./plugin_tests.ts";

/** Runs the plugin lifecycle on the data directory's plugin folders. */
export class PluginManager {
  /** The read side: what is installed where, what each plugin asks for, which may run. */
  readonly inventory: PluginInventory;
  readonly #options: PluginManagerOptions;

  constructor(options: PluginManagerOptions) {
    this.#options = options;
    this.inventory = new PluginInventory(options);
  }

  /** The lifecycle folders (inventory's). */
  get dirs(): PluginInventory["dirs"] {
    return this.inventory.dirs;
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
      writeFolder(join(this.dirs.failed, name), {
        ...safeFiles(path),
        "errors.txt": result.errors.join("\n"),
      });
    } else {
      this.inventory.requestedGrantOf(result.folder);
      writeFolder(join(this.dirs.pending, name), result.folder.files);
      removePath(join(this.dirs.failed, name));
    }
    const review: PluginReview = {
      name,
      source,
      filesHash: result.ok ? result.folder.hash : "",
      errors: result.ok ? [] : result.errors,
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
    if (!pathExists(path)) {
      throw new PluginError(`Cannot approve ${name}: it is not pending review`);
    }
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
      grant: this.inventory.requestedGrantOf(folder),
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
    if (!pathExists(path)) throw new PluginError(`Cannot reject ${name}: it is not pending review`);
    moveFolder(path, join(this.dirs.failed, name));
    Deno.writeTextFileSync(join(this.dirs.failed, name, "errors.txt"), `${reason}\n`);
  }

  /** Enables an approved plugin. */
  enable(name: string): void {
    if (!pathExists(join(this.dirs.available, name))) {
      throw new PluginError(`Cannot enable ${name}: it is not approved (see radar plugin list)`);
    }
    const link = join(this.dirs.enabled, name);
    removePath(link);
    Deno.symlinkSync(join("..", "available", name), link);
  }

  /** Disables a plugin (it stays approved). */
  disable(name: string): void {
    if (!pathExists(join(this.dirs.enabled, name))) {
      throw new PluginError(`Cannot disable ${name}: it is not enabled`);
    }
    removePath(join(this.dirs.enabled, name));
  }

  /** Puts a previously approved version back in place (it must match its approval). */
  rollback(name: string, version: string): PluginFolder {
    const path = join(this.dirs.versions, name, version);
    if (!/^\d+\.\d+\.\d+$/.test(version) || !pathExists(path)) {
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
    if (!places.some(pathExists)) throw new NotFoundError(`Cannot remove ${name}: not installed`);
    for (const place of places) removePath(place);
    this.#options.records.revokeApprovals(name, this.#options.clock.now());
    this.#options.records.deleteReview(name);
  }

  /** Runs tests.yaml of a plugin: with its approved grant, else with no permissions at all. */
  async test(name: string): Promise<PluginTestOutcome[]> {
    const { folder, errors } = this.inventory.read(name);
    if (!folder) throw new PluginError(`Cannot test ${name}: ${errors.join("; ")}`);
    const text = folder.files["tests.yaml"];
    if (text === undefined) throw new PluginError(`Cannot test ${name}: it has no tests.yaml`);
    const approval = this.#options.records.findApproval(name, folder.hash);
    const grant = approval
      ? this.inventory.effectiveGrant(this.inventory.requestedGrantOf(folder), approval.grant)
      : undefined;
    const outcomes = await runPluginTests(
      pluginCode(folder),
      parseTests(text),
      grant ?? { read: [], write: [], net: [], env: [] },
      this.inventory.limits(),
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
