/**
 * The running chat channels, built on an open Radar (imported by `radar serve` only when a channel
 * is configured): the adapters' openers, the handler whose chat turns are `radar chat`'s (the
 * active personality, history, memory) with approvals asked inline in the same chat, files saved
 * to the inbox folder, and the senders. Approving anywhere goes through the one approval service,
 * so a decision counts everywhere, once.
 */
import { join } from "node:path";
import { expandHome } from "../config/paths.ts";
import { runAgent } from "../core/agent_loop.ts";
import { type ApprovalRequests, dashboardBaseUrl } from "../away/mod.ts";
import type { InboundRecord } from "../core/channel_stores.ts";
import { formatDateTime } from "../core/zoned_time.ts";
import { ChannelRuntime } from "../channels/channel_runtime.ts";
import { channelOpeners } from "../channels/channel_openers.ts";
import { InboundHandler } from "../channels/inbound_handler.ts";
import { saveToInbox } from "../channels/inbox_folder.ts";
import type { Radar } from "./open_radar.ts";

/** Test knobs: shorter waits, another fetch. */
export interface ChannelRuntimeOptions {
  env: Record<string, string | undefined>;
  retryBaseMs?: number;
  idleMs?: number;
  fetch?: typeof fetch;
}

/** The channels' runtime for `radar` (start it; close it on shutdown). */
export function channelRuntime(radar: Radar, options: ChannelRuntimeOptions): ChannelRuntime {
  const { config, channels, clock, logger } = radar;
  const { stores, owners } = channels;
  const base = () => dashboardBaseUrl(config);
  const timeZone = () => config.radar.timezone || undefined;
  const inbox = expandHome(config.channels.inbox || join(radar.dataDir, "inbox"), options.env);
  /** One approval (undefined when it is gone). */
  const approval = (id: number) => {
    try {
      return radar.away.approvals.show(id);
    } catch {
      return undefined;
    }
  };
  /** Approvals a chat run asks for are asked in that chat too (once per approval and channel). */
  const askedInChat = (record: InboundRecord): ApprovalRequests => ({
    async request(action) {
      const requested = await radar.away.approvals.request(action);
      stores.outbox.enqueue({
        channel: record.channel,
        chatId: record.chatId,
        ownerId: record.senderId,
        purpose: "ask",
        approvalId: requested.id,
        text: `Approval #${requested.id}`,
        subject: `Radar asks (#${requested.id}): ${action.tool}`,
        dedupeKey: `ask:${requested.id}:${record.channel}`,
      }, clock.now());
      runtime.queued();
      return requested;
    },
  });
  const runtime: ChannelRuntime = new ChannelRuntime({
    config,
    stores,
    openers: channelOpeners(config, {
      env: options.env,
      secrets: radar.secrets,
      isMatrixOwner: (user) => owners.isOwner("matrix", user),
      onUntrustedMail: (from, reason) =>
        logger.info("mail not from the owner left to the email source", { from, reason }),
      fetch: options.fetch,
    }),
    handler: (channel) =>
      new InboundHandler({
        stores,
        owners,
        channel,
        conversations: radar.conversations,
        turn: async ({ conversationId, message, stored, record, signal }) => {
          const result = await runAgent(
            {
              ...await radar.agent(),
              guard: await radar.away.guard({ approvals: askedInChat(record) }),
            },
            {
              conversationId,
              kind: "chat",
              userMessage: message,
              userMessageStored: stored,
              interactive: false,
              signal,
              sideEffects: radar.sideEffects(`channel:${record.channel}:${record.id}`),
            },
          );
          return result.answer;
        },
        approvals: {
          approve: (id, via) => radar.away.approvals.approve(id, via),
          deny: (id, via) => radar.away.approvals.deny(id, via),
          show: approval,
        },
        saveFile: (record, name, bytes, announce) =>
          saveToInbox(
            { folder: inbox, queue: radar.queue, now: clock.now() },
            record,
            name,
            bytes,
            announce,
          ),
        maxAttachmentBytes: config.channels.max_attachment_mib * 1024 * 1024,
        conversationLink: (id) => `${base()}/history/${id}`,
        transaction: (work) => radar.batch(work),
        clock,
        logger,
      }),
    approval,
    approvalLink: (id) => `${base()}/approvals/${id}`,
    showTime: (iso) => formatDateTime(new Date(iso), timeZone(), { zone: true }),
    mask: (text) => radar.secrets.mask(text),
    clock,
    logger,
    pid: radar.process.pid,
    isAlive: (pid) => radar.process.isAlive(pid),
    retryBaseMs: options.retryBaseMs,
    idleMs: options.idleMs,
  });
  channels.onQueued(() => runtime.queued());
  return runtime;
}
