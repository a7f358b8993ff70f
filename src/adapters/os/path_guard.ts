/**
 * The path guard shared by read_file, write_file, list_directory and exec's working folder:
 * secrets and Radar's own state (and every copy of it) are neither read nor written, start-up
 * files are read only.
 */
import { basename, join } from "node:path";
import {
  absolutePath,
  canonicalPath,
  denoLinkReader,
  type LinkReader,
  PathSyntaxError,
} from "./canonical_path.ts";
import {
  isPathInside,
  processPaths,
  protectedLocations,
  type RadarPlaces,
  secretFolderNames,
} from "../../core/protected_paths.ts";

/** What a file tool wants to do with a path. */
export type PathAccess = "read" | "write";

/** Where the guard's rules come from. */
interface PathGuardOptions {
  home: string;
  /** Relative paths are taken from here. */
  cwd: string;
  dataDir: string;
  /** Radar's config and cache folders, never read or written (default ~/.config/radar, ~/.cache/radar). */
  configDir?: string;
  cacheDir?: string;
  /** Radar's config file in use (never read or written). */
  configPath?: string;
  /** `backup.folder` and a kept browser profile given as a path (never read or written). */
  backupFolder?: string;
  browserProfile?: string;
  /** $HISTFILE of Radar's environment (a shell history under a name of its own). */
  historyFile?: string;
  /** Folders Radar loads instructions from (`skills.dirs`): readable, never written. */
  instructionFolders?: string[];
  /** Other places protected too (the account's home, a parent Radar): every rule, read and write. */
  also?: RadarPlaces[];
  /** Extra paths refused for read and write (tools.files.blocked_paths). */
  blockedPaths?: readonly string[];
  /** When non-empty, everything outside these folders is refused (tools.files.allowed_roots). */
  allowedRoots?: readonly string[];
  reader?: LinkReader;
}

/** The verdict on a path: its real location, or why it is refused. */
export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

interface Rule {
  path: string;
  label: string;
  why: string;
  writeOnly: boolean;
}

/** Checks paths against the secret, start-up-file and Radar-state rules. */
export class PathGuard {
  readonly #options: PathGuardOptions;
  readonly #reader: LinkReader;

  constructor(options: PathGuardOptions) {
    this.#options = options;
    this.#reader = options.reader ?? denoLinkReader;
  }

  /** Expands and canonicalises `path`, then applies every rule for `access`. */
  check(path: string, access: PathAccess): PathCheck {
    const verb = access === "read" ? "read" : "write";
    let real: string;
    try {
      real = canonicalPath(absolutePath(path, this.#options.home, this.#options.cwd), this.#reader);
    } catch (error) {
      if (error instanceof PathSyntaxError) {
        return { ok: false, reason: `Cannot ${verb} ${path}: ${error.message}.` };
      }
      throw error;
    }
    const shown = this.display(real);
    const refused = (why: string): PathCheck => ({
      ok: false,
      reason: `Cannot ${verb} ${shown}: ${why}.`,
    });
    if (processPaths.test(real)) {
      return refused(
        "protected by rule /proc/<pid> (process memory, environment and open files)",
      );
    }
    for (const rule of this.#rules()) {
      if (rule.writeOnly && access === "read") continue;
      if (isInside(real, rule.path)) {
        return refused(`protected by rule ${rule.label} (${rule.why})`);
      }
    }
    const segments = real.split("/").map((segment) => segment.toLowerCase());
    const secretFolder = secretFolderNames.find((name) => segments.includes(name));
    if (secretFolder) return refused(`protected by rule */${secretFolder} (credentials)`);
    const roots = (this.#options.allowedRoots ?? []).map((root) => this.#canonical(root));
    if (roots.length && !roots.some((root) => isInside(real, root, true))) {
      const allowed = roots.map((root) => this.display(root)).join(", ");
      return refused(`outside the allowed folders (tools.files.allowed_roots: ${allowed})`);
    }
    return { ok: true, path: real };
  }

  /**
   * Hard links cannot be seen in a path: when an opened file has other links, this looks for
   * the same file (device and inode) among the protected files and says which rule it breaks.
   */
  hardLinkReason(opened: Deno.FileInfo, access: PathAccess): string | undefined {
    if ((opened.nlink ?? 1) <= 1 || opened.ino === null) return undefined;
    let budget = 5000;
    const matches = (path: string, depth: number): boolean => {
      if (budget-- <= 0) return false;
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(path);
      } catch {
        return false;
      }
      if (info.dev !== opened.dev || info.isSymlink) return false;
      if (info.isFile) return info.ino === opened.ino;
      if (!info.isDirectory || depth > 4) return false;
      try {
        for (const entry of Deno.readDirSync(path)) {
          if (matches(join(path, entry.name), depth + 1)) return true;
        }
      } catch { /* unreadable folder */ }
      return false;
    };
    const candidates = this.#rules().filter((rule) => !rule.writeOnly || access === "write");
    const found = (rule: { label: string; why: string }) =>
      `it is a hard link to a file protected by rule ${rule.label} (${rule.why})`;
    // Every protected file by identity first (one stat each, no budget), then the folders' files:
    // a big protected folder cannot use up the walk before ~/.netrc is compared.
    for (const rule of candidates) {
      try {
        const info = Deno.lstatSync(rule.path);
        if (info.isFile && info.dev === opened.dev && info.ino === opened.ino) return found(rule);
      } catch { /* missing */ }
    }
    for (const rule of candidates) {
      if (matches(rule.path, 0)) return found(rule);
    }
    return undefined;
  }

  /** Shows a path with `~` for the home directory. */
  display(path: string): string {
    const home = this.#canonical(this.#options.home);
    if (path === home) return "~";
    return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
  }

  #canonical(path: string, reader: LinkReader = this.#reader): string {
    return canonicalPath(absolutePath(path, this.#options.home, this.#options.cwd), reader);
  }

  #cachedRules?: Rule[];

  #rules(): Rule[] {
    this.#cachedRules ??= this.#buildRules();
    return this.#cachedRules;
  }

  #buildRules(): Rule[] {
    // The ~250 rule paths share their leading folders: look each component up once.
    const memo = memoizedReader(this.#reader);
    const { home, dataDir, configPath, backupFolder, browserProfile } = this.#options;
    const configDir = this.#options.configDir ?? join(home, ".config/radar");
    const cacheDir = this.#options.cacheDir ?? join(home, ".cache/radar");
    const rules: Rule[] = [];
    const add = (path: string, label: string, why: string, writeOnly: boolean) => {
      const lexical = absolutePath(path, home, this.#options.cwd);
      rules.push({ path: lexical, label, why, writeOnly });
      const real = this.#canonical(path, memo);
      if (real !== lexical) rules.push({ path: real, label, why, writeOnly });
    };
    const locations = protectedLocations({
      home,
      dataDir,
      configDir,
      cacheDir,
      configFile: configPath,
      historyFile: this.#options.historyFile,
      instructionFolders: this.#options.instructionFolders,
      backupFolder,
      browserProfile,
    });
    // Radar's own state and its copies are neither read nor written: a copy made readable (the
    // config moved to scratch, a backup, a browser profile's Local Storage) leaves past every
    // masker. Shown by their path, with what they are.
    for (const location of locations) {
      if (location.kind === "radar") {
        const shown = location.path === configPath
          ? basename(location.path)
          : this.display(this.#canonical(location.path, memo));
        add(location.path, shown, location.label, false);
      } else add(location.path, location.label, location.why, location.kind === "startup");
    }
    // Other places (the account's real home, the Radar that started this run): their secrets and
    // start-up files as above, and their Radar folders neither read nor written.
    const own = new Set([...locations.map((location) => location.path), configDir, cacheDir]);
    for (const other of this.#options.also ?? []) {
      for (const location of protectedLocations(other)) {
        if (own.has(location.path)) continue;
        own.add(location.path);
        add(location.path, location.label, location.why, location.kind === "startup");
      }
    }
    for (const path of this.#options.blockedPaths ?? []) {
      add(path, path, "tools.files.blocked_paths", false);
    }
    return rules;
  }
}

function memoizedReader(reader: LinkReader): LinkReader {
  const kinds = new Map<string, "link" | "other" | undefined>();
  return {
    kind(path) {
      if (!kinds.has(path)) kinds.set(path, reader.kind(path));
      return kinds.get(path);
    },
    readLink: (path) => reader.readLink(path),
  };
}

/**
 * True when `path` is `root` or inside it. Compared without regard to case or Unicode form
 * (case-insensitive file systems), unless `exact` (allowed roots must match exactly).
 */
export function isInside(path: string, root: string, exact = false): boolean {
  const fold = (text: string) => exact ? text : text.normalize("NFC").toLowerCase();
  return isPathInside(fold(path), fold(root));
}
