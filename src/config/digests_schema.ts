/** `digests:` — daily/weekly summaries of conversations and events, kept as searchable memory. */
import { z } from "zod";

/** When digests are written and how much they read. */
export const digestsSection = z.object({
  daily: z.boolean().default(false).describe(
    "Yesterday's digest, written at the first tick after `hour` (local time; one model call).",
  ),
  weekly: z.boolean().default(false).describe(
    "Last week's (Monday to Sunday) digest, written on Monday after `hour`.",
  ),
  hour: z.number().int().min(0).max(23).default(7).describe(
    "The local hour after which digests are written.",
  ),
  max_input_chars: z.number().int().min(1000).max(200_000).default(12_000).describe(
    "Characters of messages and events given to the model for one digest (the rest is cut).",
  ),
}).describe(
  "Daily and weekly summaries of conversations and events, kept as searchable memory (`radar digest`).",
);

/** The digests settings. */
export type DigestsConfig = z.infer<typeof digestsSection>;
