/** `backup:` scheduled backups and `budget:` limits on unattended model work. */
import { z } from "zod";

/** `backup:` archives `radar serve` writes on its own (`radar backup` writes one any time). */
export const backupSection = z.object({
  every_hours: z.number().min(0).max(8760).default(0).describe(
    "Hours between scheduled backups while the daemon runs; 0 turns them off (24: one a day).",
  ),
  folder: z.string().default("").describe(
    "Where they go; empty: `<data>/backups`. `~` is your home.",
  ),
  keep: z.number().int().min(1).max(1000).default(7).describe(
    "Scheduled backups kept (older ones are deleted after a new one is written).",
  ),
}).describe("Archives `radar serve` writes on its own (`radar backup` writes one any time).");

/**
 * `budget:` tokens that unattended work (heartbeats, tasks, conversation summaries, digests, money
 * categorisation) and every vision call may spend per local day (radar.timezone). Past a limit, scheduled work pauses until the next day with
 * one notification; 0 means no limit.
 */
export const budgetSection = z.object({
  daily_tokens: z.number().int().min(0).max(1_000_000_000).default(0).describe(
    "Every model call but the turns of a run you started, together, per day: heartbeats, tasks, summaries, digests, money categorisation, vision; 0: no limit.",
  ),
  task_daily_tokens: z.number().int().min(0).max(1_000_000_000).default(0).describe(
    "Each task on its own, per day; 0: no limit.",
  ),
}).describe(
  "Tokens unattended work (heartbeats, tasks, conversation summaries, digests, money categorisation) and every vision call may spend per local day (`radar.timezone`). Past a limit, scheduled work pauses until the next day with one notification.",
);
