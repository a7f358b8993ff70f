/** Release versions ("v1.2.3", "1.2.3-rc.1"): parsing and ordering for `radar version --check`. */

/** A parsed version: numeric core and an optional pre-release label. */
export interface ReleaseVersion {
  major: number;
  minor: number;
  patch: number;
  /** "rc.1" of 1.2.3-rc.1; empty for a final release. */
  prerelease: string;
}

const versionPattern =
  /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?(?:\+[0-9A-Za-z.-]*)?$/;

/** Parses "v1.2.3" or "1.2.3-rc.1"; undefined for anything else. */
export function parseReleaseVersion(text: string): ReleaseVersion | undefined {
  const match = versionPattern.exec(text.trim());
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4] ?? "",
  };
}

/** Compares pre-release labels the semver way (numbers numerically, a final release last). */
function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  const left = a.split(".");
  const right = b.split(".");
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    if (left[index] === undefined) return -1;
    if (right[index] === undefined) return 1;
    const numeric = /^\d+$/.test(left[index]) && /^\d+$/.test(right[index]);
    const order = numeric
      ? Number(left[index]) - Number(right[index])
      : left[index].localeCompare(right[index], "en");
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareReleaseVersions(a: ReleaseVersion, b: ReleaseVersion): number {
  return Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) ||
    Math.sign(a.patch - b.patch) || comparePrerelease(a.prerelease, b.prerelease);
}
