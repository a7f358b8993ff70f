/** `digests:` — daily/weekly summaries of conversations and events, kept as searchable memory. */
import { z } from "zod";

/** When digests are written and how much they read. */
export const digestsSection = z.object({
  /** Yesterday's digest, written at the first tick after `hour` (local time). */
  daily: z.boolean().default(false),
  /** Last week's (Monday to Sunday) digest, written on Monday after `hour`. */
  weekly: z.boolean().default(false),
  hour: z.number().int().min(0).max(23).default(7),
  /** Characters of messages and events given to the model for one digest (the rest is cut). */
  max_input_chars: z.number().int().min(1000).max(200_000).default(12_000),
});

/** The digests settings. */
export type DigestsConfig = z.infer<typeof digestsSection>;
