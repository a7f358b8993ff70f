/** The daemon's IMAP IDLE watchers, built around the email tick job (none without accounts). */
import type { RadarConfig } from "../../config/schema.ts";
import type { Logger } from "../../core/ports.ts";
import type { SecretKeeper } from "../../core/secrets.ts";
import { EmailCheck } from "./email_check.ts";
import { MailIdleWatchers } from "./mail_idle.ts";

/** One watcher set for the configured accounts when `email.idle` is on (a daemon `Watcher`). */
export async function mailIdleSources(
  radar: {
    config: RadarConfig;
    logger: Logger;
    secrets: SecretKeeper;
    tickJobs(): Promise<Array<{ name: string }>>;
  },
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Promise<MailIdleWatchers[]> {
  const { email } = radar.config;
  if (!email.idle || !email.accounts.length) return [];
  const check = (await radar.tickJobs()).find((job): job is EmailCheck =>
    job instanceof EmailCheck
  );
  if (!check) return [];
  return [
    new MailIdleWatchers({
      accounts: check.accounts,
      settings: { env, timeoutMs: email.timeout_seconds * 1000, secrets: radar.secrets },
      logger: radar.logger,
      onNewMail: (account) => check.check(account),
    }),
  ];
}
