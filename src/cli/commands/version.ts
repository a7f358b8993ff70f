/**
 * `radar version [--check]`: this Radar's version, and whether a newer release is out; release
 * versions ("v1.2.3", "1.2.3-rc.1") parsed and ordered the semver way.
 */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { latestReleaseUrl, radarVersion, releaseRepository } from "../../version.ts";
import { fetchLatestRelease } from "../../adapters/latest_release.ts";
import { RadarError } from "../../core/errors.ts";

/** How a newer binary is installed (install.sh from the latest release). */
const installCommand =
  `curl -fsSL https://github.com/${releaseRepository}/releases/latest/download/install.sh | sh`;

/** Registers `version`. */
export function registerVersion(program: Command, context: CliContext): void {
  program.command("version")
    .description("print Radar's version; --check compares it with the latest release")
    .option("--check", "ask the release server whether a newer Radar is out (exit 1: cannot tell)")
    .action(async (options: { check?: boolean }) => {
      if (!options.check) return context.io.stdout(`${radarVersion}\n`);
      const url = context.io.env.RADAR_RELEASES_URL || latestReleaseUrl;
      const latest = await fetchLatestRelease(url);
      const theirs = parseReleaseVersion(latest.tag);
      const ours = parseReleaseVersion(radarVersion)!;
      if (!theirs) {
        throw new RadarError(
          `Cannot check for a newer Radar at ${url}: the latest release's tag "${
            latest.tag.slice(0, 40)
          }" is not a version`,
        );
      }
      const order = compareReleaseVersions(theirs, ours);
      const where = latest.url ? ` ${latest.url}` : "";
      context.io.stdout(
        order > 0
          ? `Radar ${
            latest.tag.replace(/^v/, "")
          } is out (this is ${radarVersion}):${where}; update: ${installCommand}\n`
          : order === 0
          ? `Radar ${radarVersion} is the latest release.\n`
          : `Radar ${radarVersion} is newer than the latest release (${latest.tag}).\n`,
      );
    });
}

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
