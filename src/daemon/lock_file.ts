/** One daemon per data directory: a lock file holding the PID (stale locks are taken over). */
import { join } from "node:path";
import { RadarError } from "../core/errors.ts";
import { isProcessAlive, processStartTime } from "../adapters/os/process.ts";
import { writeTextFileAtomically } from "../config/atomic_file.ts";

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
function lockPath(dataDir: string): string {
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

/** When a process started (`processStartTime` in production); undefined when unknown. */
export type ProcessStart = (pid: number) => Date | undefined;

/**
 * A live process that started this long after the lock was written is not its holder but a newer
 * process that reused the PID (after a crash or a reboot). The margin absorbs clock corrections
 * at boot; a false "stale" would let two daemons run, a missed one only asks for `radar stop`.
 */
export const pidReuseMarginMs = 10 * 60_000;

/** True when the lock's holder still runs: alive, and not a newer process with the same PID. */
function holderRuns(
  info: LockInfo,
  isAlive: (pid: number) => boolean,
  processStart?: ProcessStart,
): boolean {
  if (!isAlive(info.pid)) return false;
  const locked = Date.parse(info.startedAt);
  const started = processStart?.(info.pid);
  if (!started || Number.isNaN(started.getTime()) || Number.isNaN(locked)) return true;
  return started.getTime() <= locked + pidReuseMarginMs;
}

/**
 * The running daemon's lock info, or undefined when none runs (a stale lock does not count).
 * By default this machine's real processes are asked (liveness and start times).
 */
export function runningDaemon(
  dataDir: string,
  isAlive: (pid: number) => boolean = isProcessAlive,
  processStart: ProcessStart | undefined = isAlive === isProcessAlive
    ? processStartTime
    : undefined,
): LockInfo | undefined {
  const info = readLock(dataDir);
  return info && holderRuns(info, isAlive, processStart) ? info : undefined;
}

/** Takes the lock or throws naming the PID that holds it. */
export function acquireLock(
  dataDir: string,
  info: LockInfo,
  isAlive: (pid: number) => boolean,
  processStart?: ProcessStart,
): HeldLock {
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = Deno.openSync(path, { write: true, createNew: true, mode: 0o600 });
      file.writeSync(new TextEncoder().encode(JSON.stringify(info)));
      file.close();
      return heldLock(dataDir, info.pid);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw new RadarError(`Cannot create lock file ${path}: ${(error as Error).message}`);
      }
    }
    const holder = readLock(dataDir);
    if (holder && holder.pid !== info.pid && holderRuns(holder, isAlive, processStart)) {
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

function heldLock(dataDir: string, pid: number): HeldLock {
  const path = lockPath(dataDir);
  const ours = () => readLock(dataDir)?.pid === pid;
  return {
    path,
    update(info) {
      if (!ours()) return;
      writeTextFileAtomically(path, JSON.stringify(info));
    },
    release() {
      if (!ours()) return;
      try {
        Deno.removeSync(path);
      } catch { /* already gone */ }
    },
  };
}
