/** `radar version [--check]`: this Radar's version, and whether a newer release is out. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { latestReleaseUrl, radarVersion, releaseRepository } from "../../version.ts";
import { fetchLatestRelease } from "../../adapters/latest_release.ts";
import { compareReleaseVersions, parseReleaseVersion } from "../../core/release_version.ts";
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
