/**
 * `radar channel`: the chat channels (Telegram, Matrix, email). `pair NAME` shows a one-time code
 * the owner sends to Radar on that channel within 10 minutes, which makes that account an owner
 * (a control command: only a person at a terminal may make someone an owner); `status` shows each
 * channel as `radar status` does.
 */
import type { Command } from "commander";
import { isChannelName } from "../../core/channel.ts";
import { UsageError } from "../../core/errors.ts";
import { formatDateTime } from "../../core/zoned_time.ts";
import { channelStatusLines } from "../../channels/channel_status.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";
import type { CliContext } from "../context.ts";

/** Registers `channel` and its subcommands. */
export function registerChannel(program: Command, context: CliContext): void {
  const channel = program.command("channel")
    .description("the chat channels: pair an account, show their state");
  channel.command("pair")
    .description("show a one-time code to send to Radar on a channel (pairs that account)")
    .argument("<channel>", "telegram or matrix")
    .action(async (name: string) => {
      if (!isChannelName(name) || name === "email") {
        throw new UsageError(
          `Pairing works for telegram and matrix, not "${name}" (email uses channels.email.allowed_senders)`,
        );
      }
      const radar = await context.radar();
      let paired: { code: string; expiresAt: Date };
      try {
        paired = radar.channels.pair(name);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const until = formatDateTime(paired.expiresAt, radar.config.radar.timezone || undefined);
      const how = name === "telegram"
        ? `Send this to your bot on Telegram: /start ${paired.code}`
        : `Send this to Radar on Matrix (in a room it is in, or after inviting it): ${paired.code}`;
      context.io.stdout(
        `${how}\nThe code works once, until ${until}. The account that sends it becomes an owner ` +
          "of Radar: its messages are your own words.\n",
      );
    });
  channel.command("status")
    .description("each configured channel: connected, last message, last error, waiting")
    .option("--json", jsonOptionHelp)
    .action(async (options: { json?: boolean }) => {
      const radar = await context.radar();
      const list = radar.channels.status();
      if (options.json) return printJson(context, list);
      const lines = channelStatusLines(list, radar.config.radar.timezone || undefined);
      context.io.stdout(
        lines.length
          ? `${lines.join("\n")}\n`
          : "No channel is configured (channels: in radar.yaml).\n",
      );
    });
}
