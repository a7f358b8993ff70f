/** The paths file tools never read or write: secrets, shell start-up files, Radar's own state. */

/** Under the home directory: never read or written (credentials, keys, histories). */
export const homeSecretPaths: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".password-store",
  ".local/share/keyrings",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".docker/config.json",
  ".env",
  ".git-credentials",
  ".config/gh/hosts.yml",
  ".bash_history",
  ".zsh_history",
  ".zhistory",
  ".sh_history",
  ".history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".lesshst",
  ".local/share/fish/fish_history",
  ".config/fish/fish_history",
  "Library/Keychains",
];

/** Absolute paths never read or written. */
export const systemSecretPaths: readonly string[] = [
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/master.passwd",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssh",
];

/** A process's memory, environment, command line and open files (/proc/self/environ holds API keys). */
export const processPaths = /^\/proc\/(\d+|self|thread-self)(\/|$)/;

/** Folder names that hold secrets wherever they are (another user's home, a backup copy). */
export const secretFolderNames: readonly string[] = [".ssh", ".gnupg", ".password-store", ".aws"];

/** Under the home directory: readable, never written (start-up files, autostart, schedulers). */
export const homeWriteProtectedPaths: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
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
  ".xsessionrc",
  ".inputrc",
  ".gitconfig",
  ".config/git/config",
  ".config/fish",
  ".config/autostart",
  ".config/systemd/user",
  ".config/environment.d",
  ".config/radar",
  ".local/share/applications",
  ".crontab",
  "Library/LaunchAgents",
];

/** Absolute paths readable but never written. */
export const systemWriteProtectedPaths: readonly string[] = [
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

/** Files in the data directory never read (the database and anything token-like). */
export const dataSecretNames = /^(radar\.db(-wal|-shm|-journal)?|.*(token|secret|credential).*)$/i;
