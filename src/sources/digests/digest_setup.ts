/** The digests job and writer built from the runtime's parts. */
import type { RadarConfig } from "../../config/schema.ts";
import type { ChatModel } from "../../core/chat_model.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import type { Secrets } from "../../core/secrets.ts";
import type { SourceStores } from "../source_stores.ts";
import { checkDependencies, type EventSink } from "../source_checks.ts";
import { DigestJob } from "./digest_job.ts";
import { type DigestWriterDependencies, writeDigest } from "./digest_writer.ts";
import type { DigestArchive } from "../../core/source_ports.ts";
import type { BackgroundBudget } from "../../core/budget.ts";

/** The parts a digest needs. */
export interface DigestParts {
  config: RadarConfig;
  stores: SourceStores;
  model: ChatModel;
  clock: Clock;
  secrets: Secrets;
}

/** The writer's dependencies (the tick job's and the archive's). */
function digestWriter(parts: DigestParts): DigestWriterDependencies {
  return {
    activity: parts.stores.activity,
    digests: parts.stores.digests,
    model: parts.model,
    clock: parts.clock,
    maxInputChars: parts.config.digests.max_input_chars,
    secrets: parts.secrets,
  };
}

/** The digests for the facade: list, search and write now (`radar digest`, /summaries, recall). */
export function digestArchive(parts: DigestParts): DigestArchive {
  const writer = digestWriter(parts);
  return {
    list: (limit) => writer.digests.list(limit),
    search: (text, limit) => writer.digests.search(text, limit),
    write: (period, from, to, signal) => writeDigest(writer, period, from, to, signal),
  };
}

/**
 * The digests tick job (none unless daily or weekly digests are on); `embedNew` embeds new
 * digests after a tick wrote some.
 */
export function digestJobs(
  parts: DigestParts & {
    queue: EventSink;
    logger: Logger;
    embedNew?: (signal: AbortSignal) => Promise<unknown>;
    /** `budget:`: scheduled digests wait past it and their tokens count. */
    budget?: BackgroundBudget;
  },
): DigestJob[] {
  const settings = parts.config.digests;
  if (!settings.daily && !settings.weekly) return [];
  return [
    new DigestJob({
      ...digestWriter(parts),
      ...checkDependencies(parts),
      settings,
      timeZone: parts.config.radar.timezone || undefined,
      embedNew: parts.embedNew,
      budget: parts.budget,
    }),
  ];
}
