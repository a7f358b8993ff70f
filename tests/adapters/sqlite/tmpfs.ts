/** Small tmpfs mounts for disk-full and read-only tests (root only; a normal user uses chmod). */
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import type { MachineCondition } from "../../helpers/system_parts.ts";

const decoder = new TextDecoder();

/** A mounted tmpfs. */
export interface Tmpfs {
  path: string;
  /** Remounts it read-only. */
  makeReadOnly(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `sizeKb` on a new temp directory (or on `at`). */
export function mountTmpfs(sizeKb: number, at?: string): Tmpfs {
  const path = at ?? Deno.makeTempDirSync({ prefix: "radar-tmpfs-" });
  const mounted = new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${sizeKb}k`, "tmpfs", path],
  }).outputSync();
  if (!mounted.success) throw new Error(`mount failed: ${decoder.decode(mounted.stderr)}`);
  return {
    path,
    makeReadOnly() {
      const remount = new Deno.Command("mount", { args: ["-o", "remount,ro", path] })
        .outputSync();
      if (!remount.success) throw new Error(`remount failed: ${decoder.decode(remount.stderr)}`);
    },
    unmount() {
      new Deno.Command("umount", { args: [path] }).outputSync();
      if (!at) Deno.removeSync(path, { recursive: true });
    },
  };
}

/** True when this process may mount a tmpfs (root with the capability, `mount` installed). */
export const canMountTmpfs: boolean = (() => {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return false;
  try {
    mountTmpfs(64).unmount();
    return true;
  } catch {
    return false;
  }
})();

/** Writes zeros into `folder/filler` until the disk refuses more. */
export function fillDisk(folder: string): void {
  const file = Deno.openSync(join(folder, "filler"), { write: true, create: true });
  const block = new Uint8Array(4096);
  try {
    for (;;) file.writeSync(block);
  } catch (error) {
    if (!(error instanceof Error) || !/space|full/i.test(error.message)) throw error;
  } finally {
    file.close();
  }
}

/** Runs `work` on a Radar database on a fresh 1 MiB tmpfs; closes it and unmounts afterwards. */
export function withTmpfsDatabase(work: (db: DatabaseSync, disk: Tmpfs) => void): void {
  const disk = mountTmpfs(1024);
  const db = openDatabase(join(disk.path, "radar.db"));
  try {
    work(db, disk);
  } finally {
    db.close();
    disk.unmount();
  }
}

/** Tests that mount a tmpfs run only as root with mount rights (skipped and counted elsewhere). */
export const tmpfsMounts: MachineCondition = {
  holds: canMountTmpfs,
  unless: "runs only as root with mount rights: it mounts a tmpfs",
};
