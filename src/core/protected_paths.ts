/**
 * The one list of secret and protected locations, shared by the file tools, the exec sandbox
 * and plugin grants. Pure data plus a function of the places that differ per machine.
 *
 * - secret: never read or written by a tool, hidden inside the exec sandbox, cut out of grants;
 * - startup: readable, never written (shell start-up files, autostart, schedulers, PATH folders);
 * - radar: Radar's own state and every copy of it (the data folder with its backups, journal
 *   originals, browser profiles, damaged and before-restore copies; the config folder and file;
 *   the cache; `backup.folder` and a kept browser profile wherever they are): never read, listed,
 *   copied or written by any tool, hidden from exec and plugins.
 */

/** Under the home folder: credentials, keys, browser profiles, shell histories. */
const homeSecretPaths: readonly string[] = [
  // keys and credentials
  ".ssh",
  ".gnupg",
  ".password-store",
  ".netrc",
  ".git-credentials",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  ".env",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".composer/auth.json",
  ".config/composer/auth.json",
  ".docker/config.json",
  ".dockercfg",
  ".config/containers/auth.json",
  ".kube",
  ".config/gh",
  ".config/hub",
  ".config/rclone",
  ".s3cfg",
  ".boto",
  ".wakatime.cfg",
  // cloud command-line tools
  ".aws",
  ".azure",
  ".config/gcloud",
  ".oci",
  ".config/doctl",
  ".config/hcloud",
  ".config/openstack",
  ".terraform.d/credentials.tfrc.json",
  ".config/op",
  ".bluemix",
  // keychains and wallets
  ".local/share/keyrings",
  ".local/share/kwalletd",
  "Library/Keychains",
  ".electrum",
  ".bitcoin",
  ".ethereum/keystore",
  // browser profiles (saved logins, cookies) and mail
  ".mozilla",
  ".thunderbird",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  ".config/vivaldi",
  ".config/opera",
  ".var/app/org.mozilla.firefox",
  ".var/app/com.google.Chrome",
  ".var/app/org.chromium.Chromium",
  "snap/firefox",
  "snap/chromium",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Chromium",
  "Library/Application Support/BraveSoftware",
  "Library/Application Support/Microsoft Edge",
  "Library/Application Support/Firefox",
  "Library/Application Support/Vivaldi",
  "Library/Safari",
  "Library/Cookies",
  "Library/Mail",
  "Library/Messages",
  // shell and tool histories, under each shell's own default name (bash; zsh's new-user
  // setup writes HISTFILE=~/.histfile, oh-my-zsh ~/.zsh_history, prezto ~/.zhistory; ksh93 and
  // mksh ~/.sh_history, ~/.mksh_history; busybox ash; (t)csh ~/.history; fish, nushell, xonsh,
  // elvish in their data folders) and $HISTFILE when Radar's environment has it
  ".bash_history",
  ".local/state/bash",
  ".histfile",
  ".zsh_history",
  ".zhistory",
  ".zsh_sessions",
  ".sh_history",
  ".mksh_history",
  ".ksh_history",
  ".ash_history",
  ".history",
  ".local/share/nushell",
  ".config/nushell/history.txt",
  ".config/nushell/history.sqlite3",
  ".local/share/xonsh",
  ".local/state/elvish",
  ".local/share/elvish",
  ".irb_history",
  ".pry_history",
  ".ipython",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".rediscli_history",
  ".lesshst",
  ".viminfo",
  ".local/share/fish/fish_history",
  ".config/fish/fish_history",
];

/** Absolute secret paths. */
const systemSecretPaths: readonly string[] = [
  // the password hashes and the backups shadow tools keep beside them (readable as root)
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/security/opasswd",
  "/etc/master.passwd",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssh",
  "/private/etc/master.passwd",
  "/private/etc/sudoers",
];

/** Folder names that hold secrets wherever they are (another user's home, a backup copy). */
export const secretFolderNames: readonly string[] = [".ssh", ".gnupg", ".password-store", ".aws"];

/**
 * Under the home folder: readable, never written. Whatever runs at log-in, at shell start, on a
 * schedule, or is found first on PATH.
 */
const homeStartupPaths: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".kshrc",
  ".mkshrc",
  ".xprofile",
  ".xinitrc",
  ".xsession",
  ".xsessionrc",
  ".inputrc",
  ".pam_environment",
  ".gitconfig",
  ".config/git",
  ".config/fish",
  ".config/autostart",
  ".config/systemd",
  ".config/environment.d",
  ".config/upstart",
  ".config/plasma-workspace",
  ".local/share/systemd",
  ".local/share/applications",
  ".local/share/dbus-1",
  ".local/bin",
  "bin",
  ".crontab",
  ".vimrc",
  ".config/nvim",
  ".emacs",
  ".emacs.d",
  ".tmux.conf",
  ".screenrc",
  ".curlrc",
  ".wgetrc",
  "Library/LaunchAgents",
];

/** Absolute paths readable but never written (system start-up, schedulers, identity files). */
const systemStartupPaths: readonly string[] = [
  "/etc/profile",
  "/etc/profile.d",
  "/etc/bash.bashrc",
  "/etc/bashrc",
  "/etc/zshrc",
  "/etc/zsh",
  "/etc/environment",
  "/etc/crontab",
  "/etc/cron.d",
  "/etc/cron.hourly",
  "/etc/cron.daily",
  "/etc/cron.weekly",
  "/etc/cron.monthly",
  "/var/spool/cron",
  "/var/at/tabs",
  "/usr/lib/cron/tabs",
  "/etc/systemd",
  "/etc/xdg/autostart",
  "/Library/LaunchAgents",
  "/Library/LaunchDaemons",
  "/etc/passwd",
  "/etc/group",
  "/etc/hosts",
];

/** A process's memory, environment, command line and open files (/proc/self/environ holds keys). */
export const processPaths = /^\/proc\/(\d+|self|thread-self)(\/|$)/;

/** Which rule a protected location falls under. */
export type ProtectionKind = "secret" | "startup" | "radar";

/** One protected location: an absolute path, the label shown to people, and why. */
export interface ProtectedLocation {
  path: string;
  label: string;
  kind: ProtectionKind;
  why: string;
}

/** The places that differ per machine and install. */
export interface RadarPlaces {
  home: string;
  dataDir: string;
  /** Radar's config folder ($XDG_CONFIG_HOME/radar). */
  configDir: string;
  /** Radar's cache folder ($XDG_CACHE_HOME/radar). */
  cacheDir: string;
  /** The config file in use, when it lives elsewhere (e.g. ./radar.yaml). */
  configFile?: string;
  /** $HISTFILE, when the environment names one (a shell history under a name of its own). */
  historyFile?: string;
  /** `backup.folder`, when set (the default, `<data>/backups`, is inside the data folder). */
  backupFolder?: string;
  /** A kept browser profile given as a path (`browser.profile`; a name lives in the data folder). */
  browserProfile?: string;
  /**
   * Folders Radar loads instructions from besides its data folder (`skills.dirs`): readable,
   * never written by the model, and never inside a writable root (a model-written SKILL.md would
   * join every later system prompt).
   */
  instructionFolders?: string[];
  /**
   * Other places protected as well, whatever HOME this run has: the account's own home (from the
   * OS, not $HOME) and the Radar that started this one (`radar eval` runs tasks in a scratch
   * home). Their Radar folders are neither read nor written.
   */
  also?: RadarPlaces[];
}

/**
 * Radar's places from the environment: config in `$XDG_CONFIG_HOME/radar` (~/.config/radar),
 * cache in `$XDG_CACHE_HOME/radar` (~/.cache/radar).
 */
export function radarPlacesFrom(
  env: Record<string, string | undefined>,
  dataDir: string,
  configFile?: string,
  also?: RadarPlaces[],
): RadarPlaces {
  const home = env.HOME || env.USERPROFILE || "/";
  return {
    home,
    dataDir,
    configDir: under(env.XDG_CONFIG_HOME || under(home, ".config"), "radar"),
    cacheDir: under(env.XDG_CACHE_HOME || under(home, ".cache"), "radar"),
    configFile,
    ...(env.HISTFILE?.startsWith("/") ? { historyFile: env.HISTFILE } : {}),
    ...(also?.length ? { also } : {}),
  };
}

/**
 * The variable `radar eval` hands its task runs: the JSON of the starting Radar's places, added
 * to what they protect (it can only add protection, never take any away).
 */
export const parentPlacesVariable = "RADAR_PROTECT_PARENT";

/** The places a parent Radar handed down in `parentPlacesVariable`, if any (malformed: none). */
export function parentPlaces(env: Record<string, string | undefined>): RadarPlaces | undefined {
  try {
    const value = JSON.parse(env[parentPlacesVariable] ?? "null");
    const text = (key: string) => typeof value?.[key] === "string" && value[key].startsWith("/");
    if (!text("home") || !text("dataDir") || !text("configDir") || !text("cacheDir")) {
      return undefined;
    }
    return {
      home: value.home,
      dataDir: value.dataDir,
      configDir: value.configDir,
      cacheDir: value.cacheDir,
      ...(typeof value.configFile === "string" ? { configFile: value.configFile } : {}),
      ...(text("backupFolder") ? { backupFolder: value.backupFolder } : {}),
      ...(text("browserProfile") ? { browserProfile: value.browserProfile } : {}),
    };
  } catch {
    return undefined;
  }
}

/** `folder/name` for an absolute folder and a relative name (no node:path in the core). */
function under(folder: string, name: string): string {
  return `${folder.replace(/\/+$/, "")}/${name}`;
}

const whyOf: Record<ProtectionKind, string> = {
  secret: "credentials",
  startup: "start-up and schedule files are never written",
  radar: "Radar's own state",
};

/** Every protected location for these places, secrets first. */
export function protectedLocations(places: RadarPlaces): ProtectedLocation[] {
  const { home } = places;
  const out: ProtectedLocation[] = [];
  const add = (path: string, label: string, kind: ProtectionKind) =>
    out.push({ path, label, kind, why: whyOf[kind] });
  for (const path of homeSecretPaths) add(under(home, path), `~/${path}`, "secret");
  if (places.historyFile) add(places.historyFile, "$HISTFILE", "secret");
  for (const path of systemSecretPaths) add(path, path, "secret");
  add(places.dataDir, "Radar's data folder", "radar");
  add(places.configDir, "Radar's config folder", "radar");
  add(places.cacheDir, "Radar's cache folder", "radar");
  if (places.configFile) add(places.configFile, "Radar's config file", "radar");
  if (places.backupFolder) add(places.backupFolder, "Radar's backup folder", "radar");
  if (places.browserProfile) add(places.browserProfile, "Radar's browser profile", "radar");
  for (const path of homeStartupPaths) add(under(home, path), `~/${path}`, "startup");
  for (const path of systemStartupPaths) add(path, path, "startup");
  for (const path of places.instructionFolders ?? []) {
    out.push({ path, label: path, kind: "startup", why: "Radar loads instructions from it" });
  }
  const seen = new Set(out.map((location) => location.path));
  for (const other of places.also ?? []) {
    for (const location of protectedLocations(other)) {
      if (seen.has(location.path)) continue;
      seen.add(location.path);
      out.push({ ...location, label: `${location.label} (${other.home})` });
    }
  }
  return out;
}

/** True when `path` is `root` or inside it (plain string comparison of absolute paths). */
export function isPathInside(path: string, root: string): boolean {
  const folder = root.replace(/\/+$/, "");
  return folder === "" || path === folder || path.startsWith(`${folder}/`);
}
