/** Timestamps for file and folder names. */

/** A UTC timestamp usable in a file name: 20261123T181500Z. */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}
