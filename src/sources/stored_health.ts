/** A scheduled source's health record from its stored row (shared by every kind of source). */
import type { SourceHealthRecord, SourceKind } from "../core/source_ports.ts";
import type { SourceHealth } from "./source_stores.ts";

/**
 * The record of a source the daemon checks on a schedule: ok, failing (with its streak, next try
 * and error) or unchecked (`uncheckedNote` says who checks it).
 */
export function storedHealthRecord(
  kind: SourceKind,
  name: string,
  health: SourceHealth | undefined,
  uncheckedNote: string,
): SourceHealthRecord {
  if (!health?.lastCheckAt) {
    return { kind, name, state: "unchecked", failures: 0, note: uncheckedNote };
  }
  const times = {
    lastCheckAt: health.lastCheckAt,
    ...(health.nextCheckAt ? { nextCheckAt: health.nextCheckAt } : {}),
  };
  if (health.lastError) {
    return {
      kind,
      name,
      state: "failing",
      ...times,
      lastError: health.lastError,
      failures: health.failures,
    };
  }
  return { kind, name, state: "ok", lastCheckAt: health.lastCheckAt, failures: 0 };
}
