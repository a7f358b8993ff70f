/** One daemon per data directory: a lock file holding the PID (stale locks are taken over). */
import { join } from "node:path";
import { RadarError } from "../core/errors.ts";

/** What the lock file says about the running daemon. */
export interface LockInfo {
  pid: number;
  startedAt: string;
  /** Where the dashboard listens, once it does. */
  url?: string;
}

/** A held lock. */
export interface HeldLock {
  path: string;
  /** Rewrites the lock's info (e.g. once the port is known). */
  update(info: LockInfo): void;
  /** Removes the lock if it is still ours. */
  release(): void;
}

/** The lock file of a data directory. */
export function lockPath(dataDir: string): string {
  return join(dataDir, "radar.pid");
}

/** Reads the lock file; undefined when absent or unreadable. */
export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(Deno.readTextFileSync(lockPath(dataDir))) as LockInfo;
    return Number.isInteger(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The running daemon's lock info, or undefined when none runs (a stale lock does not count). */
export function runningDaemon(
  dataDir: string,
  isAlive: (pid: number) => boolean,
): LockInfo | undefined {
  const info = readLock(dataDir);
  return info && isAlive(info.pid) ? info : undefined;
}

/** Takes the lock or throws naming the PID that holds it. */
export function acquireLock(
  dataDir: string,
  info: LockInfo,
  isAlive: (pid: number) => boolean,
): HeldLock {
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = Deno.openSync(path, { write: true, createNew: true, mode: 0o600 });
      file.writeSync(new TextEncoder().encode(JSON.stringify(info)));
      file.close();
      return heldLock(path, info.pid);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw new RadarError(`Cannot create lock file ${path}: ${(error as Error).message}`);
      }
    }
    const holder = readLock(dataDir);
    if (holder && holder.pid !== info.pid && isAlive(holder.pid)) {
      throw new RadarError(
        `Radar is already running for ${dataDir} (PID ${holder.pid}); stop it with \`radar stop\``,
      );
    }
    // Stale: the holder crashed (or the file is garbage). Take it over.
    try {
      Deno.removeSync(path);
    } catch { /* someone else removed it first */ }
  }
  throw new RadarError(`Cannot take the lock file ${path}: it keeps changing`);
}

function heldLock(path: string, pid: number): HeldLock {
  const ours = () => {
    try {
      return (JSON.parse(Deno.readTextFileSync(path)) as LockInfo).pid === pid;
    } catch {
      return false;
    }
  };
  return {
    path,
    update(info) {
      if (!ours()) return;
      const temporary = `${path}.${pid}.tmp`;
      Deno.writeTextFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
      Deno.renameSync(temporary, path);
    },
    release() {
      if (!ours()) return;
      try {
        Deno.removeSync(path);
      } catch { /* already gone */ }
    },
  };
}
