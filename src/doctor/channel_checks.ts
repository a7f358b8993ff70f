/**
 * `radar doctor`'s lines about the chat channels, for each configured one: its secrets resolve
 * (through the channels' own reader), the service answers with them, who counts as the owner
 * (nobody yet: the pairing command), and what the running daemon last recorded. None of them
 * blocks: Radar works without its channels. The channel libraries load inside the checks.
 */
import type { RadarConfig } from "../config/schema.ts";
import { type ChannelName, channelNames } from "../core/channel.ts";
import type { ChannelHealthRecord } from "../core/channel_stores.ts";
import { formatDateTime } from "../core/zoned_time.ts";
import { hasSecret, type SecretEntry } from "../channels/channel_secret.ts";
import { configuredOwners } from "../channels/channel_owners.ts";
import { type LockInfo, runningDaemon } from "../daemon/lock_file.ts";
import type { Radar } from "../runtime/open_radar.ts";
import { readSecret, type SecretReading } from "./channel_secret_check.ts";
import { matrixServiceVerdict, telegramServiceVerdict } from "./chat_service_checks.ts";
import { emailServiceVerdicts } from "./email_channel_check.ts";
import { type Verdict, verdict } from "./verdict.ts";

/** What the channel checks run with. */
export interface ChannelCheckOptions {
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
  /** One service call's limit (default 15 s; email uses `email.timeout_seconds`). */
  timeoutMs?: number;
  /** The running daemon (default: the data folder's lock file, as `radar status` reads it). */
  daemon?: LockInfo;
}

/** Every configured channel's verdicts, channel by channel (checked side by side). */
export async function channelVerdicts(
  radar: Pick<Radar, "config" | "channels" | "secrets" | "dataDir">,
  options: ChannelCheckOptions,
): Promise<Verdict[]> {
  const { config } = radar;
  const configured = channelNames.filter((name) => config.channels[name] !== undefined);
  if (!configured.length) {
    return [verdict("channels", "skip", "no chat channels configured (ntfy only)", {
      fix: "Telegram, Matrix or email as a chat with Radar: docs/channels.md",
    })];
  }
  const daemon = options.daemon ?? runningDaemon(radar.dataDir);
  const health = new Map(radar.channels.stores.health.all().map((item) => [item.channel, item]));
  const reading: SecretReading = { env: options.env, secrets: radar.secrets, timeoutMs: 20_000 };
  const call = { timeoutMs: options.timeoutMs ?? 15_000, fetch: options.fetch };
  const found = await Promise.all(configured.map(async (channel) => {
    const service = await serviceVerdicts(config, channel, reading, call);
    return [
      ...service.verdicts,
      ownerVerdict(radar, channel, service.botName),
      daemonVerdict(channel, health.get(channel), daemon, {
        reached: service.reached,
        timeZone: config.radar.timezone || undefined,
      }),
    ];
  }));
  // Every secret read is known to `radar.secrets` now: none reaches the report.
  return found.flat().map((item) => ({
    ...item,
    summary: radar.secrets.mask(item.summary),
    ...(item.fix ? { fix: radar.secrets.mask(item.fix) } : {}),
  }));
}

interface ServiceFinding {
  verdicts: Verdict[];
  /** True when the service answered with the credentials. */
  reached: boolean;
  botName?: string;
}

/** The channel's secrets, then its service asked with them. */
async function serviceVerdicts(
  config: RadarConfig,
  channel: ChannelName,
  reading: SecretReading,
  call: { timeoutMs: number; fetch: typeof fetch },
): Promise<ServiceFinding> {
  const { telegram, matrix, email } = config.channels;
  if (channel === "telegram" && telegram) {
    const token = await readSecret({
      check: "telegram",
      section: "channels.telegram",
      entry: telegram as SecretEntry,
      key: "token",
      what: "bot token",
    }, reading);
    if ("failed" in token) return { verdicts: [token.failed], reached: false };
    const found = await telegramServiceVerdict({
      token: token.value,
      apiRoot: telegram.api_root,
      ...call,
    });
    return { verdicts: [found.verdict], reached: found.verdict.level === "ok", ...found };
  }
  if (channel === "matrix" && matrix) {
    const byPassword = hasSecret(matrix as SecretEntry, "password", false);
    const secret = await readSecret({
      check: "matrix",
      section: "channels.matrix",
      entry: matrix as SecretEntry,
      key: byPassword ? "password" : "access_token",
      what: byPassword ? "password" : "access token",
      withKeychain: !byPassword,
    }, reading);
    if ("failed" in secret) return { verdicts: [secret.failed], reached: false };
    const found = await matrixServiceVerdict({
      homeserver: matrix.homeserver,
      userId: matrix.user_id,
      ...(byPassword ? { password: secret.value } : { accessToken: secret.value }),
      ...call,
    });
    return { verdicts: [found], reached: found.level === "ok" };
  }
  if (channel === "email" && email) return await emailServiceVerdicts(config, email, reading);
  return { verdicts: [], reached: false };
}

/** Who counts as the owner; nobody yet is a warning with the way to fix it. */
function ownerVerdict(
  radar: Pick<Radar, "config" | "channels">,
  channel: ChannelName,
  botName?: string,
): Verdict {
  const configured = configuredOwners(radar.config, channel);
  const everyone = radar.channels.owners.of(channel);
  const paired = everyone.length - configured.length;
  const notices = radar.config.notifications.channels.includes(channel);
  if (channel === "email") {
    return verdict(
      "email",
      "ok",
      `owner: mail from ${configured.join(", ")} counts when DKIM or SPF passes for it`,
    );
  }
  if (!everyone.length) {
    const how = channel === "telegram"
      ? `run \`radar channel pair telegram\` and send \`/start CODE\` to ${botName ?? "the bot"} ` +
        "within 10 minutes, or put your numeric id in channels.telegram.allowed_users"
      : "put your Matrix id in channels.matrix.allowed_users (Radar joins only its owners' " +
        "invitations), or run `radar channel pair matrix` and send the code in a room Radar is in";
    return verdict(
      channel,
      "warn",
      `nobody can talk to Radar here yet: no allowed_users, nobody paired` +
        (notices ? ` (notices for ${channel} wait until someone is)` : ""),
      { fix: how },
    );
  }
  const parts = [
    ...(configured.length ? [`${configured.length} in allowed_users`] : []),
    ...(paired > 0 ? [`${paired} paired`] : []),
  ];
  return verdict(channel, "ok", `owners: ${parts.join(", ")}${notices ? "; gets notices" : ""}`);
}

/** What the daemon last recorded of the channel, read against whether it runs now. */
function daemonVerdict(
  channel: ChannelName,
  record: ChannelHealthRecord | undefined,
  daemon: LockInfo | undefined,
  context: { reached: boolean; timeZone?: string },
): Verdict {
  const when = (iso?: string) => iso ? formatDateTime(new Date(iso), context.timeZone) : "never";
  const traffic = record
    ? `last message in: ${when(record.lastMessageAt)}, out: ${when(record.lastSentAt)}` +
      (record.lastError ? `; last error (${when(record.lastErrorAt)}): ${record.lastError}` : "")
    : "";
  if (!daemon) {
    return verdict(
      channel,
      "skip",
      record
        ? `no daemon runs now; the last one recorded it ${record.state} (${
          when(record.updatedAt)
        }); ${traffic}`
        : "no daemon runs now, and none has run this channel yet",
      { fix: "`radar start` (or `radar serve`) runs the channels" },
    );
  }
  if (!record || record.pid !== daemon.pid || record.state === "stopped") {
    return verdict(
      channel,
      "warn",
      `the running daemon (PID ${daemon.pid}) does not run this channel: it started before ` +
        `channels.${channel} was set`,
      { fix: "restart it: `radar stop`, then `radar start`" },
    );
  }
  const since = when(record.updatedAt);
  if (record.state === "failing") {
    return verdict(
      channel,
      "warn",
      `the daemon (PID ${daemon.pid}) cannot use it (${since}): ${record.lastError ?? "?"}`,
      {
        fix: context.reached
          ? "this check got through: the daemon may run with another environment (a `_env` " +
            "secret) or an older config; restart it (`radar stop`, then `radar start`)"
          : "fix what the lines above say; the daemon retries by itself",
      },
    );
  }
  const differs = record.state === "connected" && !context.reached
    ? "; it gets through where this check did not: this shell's environment (a `_env` secret) " +
      "may differ from the daemon's"
    : "";
  return verdict(
    channel,
    "ok",
    `the daemon (PID ${daemon.pid}) reports it ${record.state} (${since}); ${traffic}${differs}`,
  );
}
