/** Radar's version, printed by `radar --version`, and where its releases are published. */
export const radarVersion = "0.1.0";

/**
 * The GitHub repository (owner/name) whose releases `install.sh` downloads and
 * `radar version --check` compares with; the release workflow publishes there.
 */
export const releaseRepository = "radar-assistant/radar";

/** The GitHub API's "latest release" address (`RADAR_RELEASES_URL` overrides it). */
export const latestReleaseUrl = `https://api.github.com/repos/${releaseRepository}/releases/latest`;
