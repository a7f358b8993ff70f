/**
 * Passwords from the OS keychain: macOS `security find-generic-password -s S -a A -w`, Linux
 * `secret-tool lookup service S account A` (libsecret). Run as a plain argv subprocess (no
 * shell) found on the user's PATH, under a timeout; every failure is one readable line.
 */

/** Which keychain item holds a password. */
export interface KeychainItem {
  service: string;
  account: string;
}

/** The program and arguments that print the item's password on this OS, or why there is none. */
export function keychainCommand(
  item: KeychainItem,
  os: typeof Deno.build.os,
): { program: string; args: string[]; missing: string } | { unsupported: string } {
  if (os === "darwin") {
    return {
      program: "security",
      args: ["find-generic-password", "-s", item.service, "-a", item.account, "-w"],
      missing: "the macOS `security` program is missing",
    };
  }
  if (os === "linux" || os === "freebsd" || os === "netbsd") {
    return {
      program: "secret-tool",
      args: ["lookup", "service", item.service, "account", item.account],
      missing: "secret-tool is not installed (Debian/Ubuntu: apt install libsecret-tools)",
    };
  }
  return { unsupported: `the keychain is supported on macOS and Linux only, not ${os}` };
}

/** Why a keychain lookup that exited with `code` failed, as the end of one line. */
export function keychainProblem(item: KeychainItem, code: number, stderr: string): string {
  const detail = stderr.trim().split("\n").find((line) => line.trim())?.trim().slice(0, 200);
  const where = `service "${item.service}" account "${item.account}"`;
  if (!detail || /could not be found|not found|no such/i.test(detail)) {
    return `no password in the keychain for ${where}`;
  }
  if (/lock|denied|cancel|interaction/i.test(detail)) {
    return `the keychain is locked or refused access to ${where}: ${detail}`;
  }
  return `keychain lookup for ${where} failed (exit ${code}): ${detail}`;
}
