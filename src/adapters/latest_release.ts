/**
 * Asks a GitHub-style releases API for the latest release (`GET …/releases/latest`): its tag and
 * page. Bounded (time and size) and parsed strictly; every failure is one readable line.
 */
import { z } from "zod";
import { RadarError } from "../core/errors.ts";
import { readCapped } from "./network/bounded_read.ts";

/** What `radar version --check` needs of a release. */
export interface LatestRelease {
  tag: string;
  url: string;
}

const releaseAnswer = z.object({
  tag_name: z.string().min(1).max(100),
  html_url: z.string().max(2000).default(""),
  draft: z.boolean().optional(),
  prerelease: z.boolean().optional(),
});

/** A release answer is a small JSON object; more than this is not one. */
const maxAnswerBytes = 1024 * 1024;

/** Fetches the latest release from `url`; throws a one-line RadarError (exit 1) on failure. */
export async function fetchLatestRelease(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<LatestRelease> {
  const fetcher = options.fetch ?? fetch;
  const failed = (why: string, cause?: unknown) =>
    new RadarError(`Cannot check for a newer Radar at ${url}: ${why}`, 1, { cause });
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { accept: "application/vnd.github+json", "user-agent": "radar-version-check" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError";
    throw failed(timedOut ? "no answer in time (offline?)" : "unreachable (offline?)", error);
  }
  const { bytes, cut } = await readCapped(response, maxAnswerBytes);
  if (response.status === 404) throw failed("no release has been published yet (404)");
  if (!response.ok) throw failed(`the server answered ${response.status}`);
  if (cut) throw failed("the answer is too large to be a release");
  let parsed: z.infer<typeof releaseAnswer>;
  try {
    parsed = releaseAnswer.parse(JSON.parse(new TextDecoder().decode(bytes)));
  } catch (error) {
    throw failed("the answer is not a release (expected JSON with tag_name)", error);
  }
  return { tag: parsed.tag_name, url: parsed.html_url };
}
