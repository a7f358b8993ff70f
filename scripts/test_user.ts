/**
 * The unprivileged test user: what some tests need and root cannot give them (root ignores file
 * permissions, and the kernel does not apply RLIMIT_NPROC to it). When the suite runs as root on
 * Linux (CI does), `deno task setup` creates `radar-test` (no login shell, a home of its own) and
 * puts there what a test subprocess needs: a copy of this deno and of Deno's npm cache (the one
 * under /root is not readable by other users). tests/helpers/test_user.ts runs tests as it.
 * A normal user runs those tests directly and needs none of this.
 */
import { join } from "node:path";
import { findProgram } from "./system_parts.ts";

/** The test user's name (RADAR_TEST_SKIP=test-user skips the tests that need it, as root). */
export const testUserName = "radar-test";
/** Its home, made by setup (owner-only). */
export const testUserHome = `/home/${testUserName}`;
/** The deno it runs (a copy: the running one may sit in root's npx cache). */
export const testUserDeno = join(testUserHome, ".deno", "bin", "deno");
/** Its DENO_DIR: Deno's npm cache copied in; its own compiled-module cache grows there. */
export const testUserDenoDir = join(testUserHome, ".cache", "deno");

/** A user from /etc/passwd. */
export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** The entry of `name` in /etc/passwd, or undefined. */
export function passwdEntry(name: string): PasswdEntry | undefined {
  let text = "";
  try {
    text = Deno.readTextFileSync("/etc/passwd");
  } catch {
    return undefined;
  }
  const fields = text.split("\n").map((line) => line.split(":")).find((row) => row[0] === name);
  if (!fields || fields.length < 7) return undefined;
  return { name, uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] };
}

function size(path: string): number | undefined {
  try {
    return Deno.statSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * Why tests cannot run as the test user on this machine (undefined: they can). Only asked as
 * root; a normal user runs them directly.
 */
export function testUserProblem(): string | undefined {
  if (Deno.build.os !== "linux") return "it is made only on Linux";
  if (!findProgram("setpriv")) return "setpriv (util-linux) is missing";
  const entry = passwdEntry(testUserName);
  if (!entry) return "there is no such user";
  if (!(entry.uid > 0)) return `its uid is ${entry.uid}`;
  const copy = size(testUserDeno);
  if (copy === undefined) return `${testUserDeno} is missing`;
  if (copy !== size(Deno.execPath())) return `${testUserDeno} is not this deno`;
  if (size(join(testUserDenoDir, "npm")) === undefined) {
    return `${testUserDenoDir} has no npm cache`;
  }
  return undefined;
}

/**
 * The argv that runs `argv` as the test user (its uid, gid and groups; nothing else changes)
 * through `setpriv` (default: found like the system parts).
 */
export function asTestUserArgv(
  argv: readonly string[],
  setpriv = findProgram("setpriv") ?? "setpriv",
): string[] {
  return [
    setpriv,
    `--reuid=${testUserName}`,
    `--regid=${testUserName}`,
    "--init-groups",
    "--",
    ...argv,
  ];
}
