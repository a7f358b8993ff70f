/**
 * Matrix through the Client-Server API, with npm matrix-js-sdk as the HTTP client (its auth,
 * its `MatrixError` with `retry_after_ms`, its password login): /sync long polls from the stored
 * `since` token (the first sync only takes the position: old history is never treated as new),
 * rooms the owner invites Radar to are joined, messages go out with a transaction id that stays
 * the same on every retry (the homeserver sends one event however often Radar retries), replies
 * and reactions to Radar's approval questions are answers, and redactions take back a message
 * not handled yet. No end-to-end encryption: Radar reads unencrypted rooms only.
 */
import type { MatrixClient } from "matrix-js-sdk";
import {
  ChannelBusyError,
  type ChatChannel,
  type OutgoingMessage,
  type ReceivedAttachment,
  type ReceivedBatch,
  type ReceivedMessage,
  type SendResult,
} from "../../core/channel.ts";
import { checkSize, fetchCapped } from "../capped_download.ts";
import { firstLine } from "../../core/errors.ts";

/** What the adapter is built from. */
export interface MatrixSettings {
  homeserver: string;
  userId: string;
  /** An access token, or a password to log in with at start. */
  accessToken?: string;
  password?: string;
  deviceId: string;
  pollSeconds: number;
  /** Whose invitations are accepted (the owner's identities now). */
  mayInvite: (userId: string) => boolean;
  fetch?: typeof fetch;
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** A silent logger: the SDK's log lines would go to the terminal. */
export const quiet = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  getChild() {
    return quiet;
  },
};

/** Opens the adapter (matrix-js-sdk is loaded here, on first use); logs in when given a password. */
export async function openMatrixChannel(settings: MatrixSettings): Promise<ChatChannel> {
  const sdk = await import("matrix-js-sdk");
  const make = (accessToken?: string, deviceId?: string) =>
    sdk.createClient({
      baseUrl: settings.homeserver.replace(/\/+$/, ""),
      userId: settings.userId,
      accessToken,
      deviceId: deviceId ?? settings.deviceId,
      fetchFn: settings.fetch ?? fetch,
      logger: quiet,
    });
  if (settings.accessToken) return new MatrixChannel(make(settings.accessToken), settings);
  let login: { access_token: string; device_id: string };
  try {
    login = await make().loginRequest({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: settings.userId },
      password: settings.password ?? "",
      device_id: settings.deviceId,
      initial_device_display_name: "Radar",
    });
  } catch (error) {
    throw new Error(`Matrix login as ${settings.userId} failed: ${describe(error)}`);
  }
  return new MatrixChannel(make(login.access_token, login.device_id), settings);
}

/** The longest message body Radar sends (events must stay under 64 KiB). */
const maxBody = 16_000;

/** A Matrix account as a chat channel. */
export class MatrixChannel implements ChatChannel {
  readonly name = "matrix";
  readonly maxChars = maxBody;
  readonly maxParts = 4;

  constructor(private readonly client: MatrixClient, private readonly settings: MatrixSettings) {}

  async receive(cursor: string | undefined, signal: AbortSignal): Promise<ReceivedBatch> {
    const sync = await this.#request<Json>(
      "GET",
      "/sync",
      {
        ...(cursor ? { since: cursor } : {}),
        timeout: String(cursor ? this.settings.pollSeconds * 1000 : 0),
      },
      undefined,
      signal,
    );
    const messages: ReceivedMessage[] = [];
    const withdrawn: string[] = [];
    for (const [roomId, room] of Object.entries<Json>(sync.rooms?.invite ?? {})) {
      const inviter = (room.invite_state?.events ?? []).find((event: Json) =>
        event.type === "m.room.member" && event.state_key === this.settings.userId
      )?.sender;
      if (typeof inviter === "string" && this.settings.mayInvite(inviter)) {
        await this.#request("POST", `/join/${encodeURIComponent(roomId)}`, {}, {}, signal)
          .catch(() => {});
      }
    }
    // The first sync takes the position only: what is in the rooms already is history.
    if (cursor) {
      for (const [roomId, room] of Object.entries<Json>(sync.rooms?.join ?? {})) {
        for (const event of room.timeline?.events ?? []) {
          if (event.sender === this.settings.userId) continue;
          if (event.type === "m.room.redaction") {
            const target = event.redacts ?? event.content?.redacts;
            if (typeof target === "string") withdrawn.push(target);
            continue;
          }
          const message = receivedOf(roomId, event);
          if (message) messages.push(message);
        }
      }
    }
    return { messages, cursor: String(sync.next_batch ?? cursor ?? ""), withdrawn };
  }

  async send(message: OutgoingMessage, signal: AbortSignal): Promise<SendResult> {
    const content: Json = { msgtype: "m.text", body: message.text };
    if (message.replyTo) {
      content["m.relates_to"] = { "m.in_reply_to": { event_id: message.replyTo } };
    }
    if (message.edit) {
      content.body = `* ${message.text}`;
      content["m.new_content"] = { msgtype: "m.text", body: message.text };
      content["m.relates_to"] = { rel_type: "m.replace", event_id: message.edit };
    }
    const path = `/rooms/${encodeURIComponent(message.chatId)}/send/m.room.message/${
      encodeURIComponent(`radar.${message.id}`)
    }`;
    try {
      const sent = await this.#request<Json>("PUT", path, {}, content, signal);
      return { sent: true, externalId: String(sent.event_id ?? "") || undefined };
    } catch (error) {
      if (error instanceof ChannelBusyError) {
        return { sent: false, error: error.message, retryAfterMs: error.retryAfterMs };
      }
      const status = (error as { httpStatus?: number }).httpStatus;
      return {
        sent: false,
        error: (error as Error).message,
        permanent: status === 403 || status === 404 || status === 400,
      };
    }
  }

  async download(
    attachment: ReceivedAttachment,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    checkSize(attachment.size, maxBytes);
    const url = this.client.mxcUrlToHttp(
      attachment.ref,
      undefined,
      undefined,
      undefined,
      false,
      true,
      true,
    );
    if (!url) throw new Error("Matrix: the attachment has no usable mxc:// URL");
    return await fetchCapped(
      this.settings.fetch ?? fetch,
      url,
      { headers: { Authorization: `Bearer ${this.client.getAccessToken()}` }, signal },
      maxBytes,
      "Matrix media download",
    );
  }

  close(): void {
    this.client.stopClient();
  }

  /** One authenticated request; a 429 becomes a ChannelBusyError with the server's wait. */
  async #request<T>(
    method: "GET" | "PUT" | "POST",
    path: string,
    query: Record<string, string>,
    body: Json,
    signal: AbortSignal,
  ): Promise<T> {
    const { Method } = await import("matrix-js-sdk");
    try {
      return await this.client.http.authedRequest<T>(
        method === "GET" ? Method.Get : method === "PUT" ? Method.Put : Method.Post,
        path,
        query,
        body,
        { abortSignal: signal, localTimeoutMs: (this.settings.pollSeconds + 30) * 1000 },
      );
    } catch (error) {
      const limited = error as { httpStatus?: number; getRetryAfterMs?: () => number | null };
      if (limited.httpStatus === 429) {
        const wait = safeRetryAfter(limited);
        throw new ChannelBusyError(`Matrix ${method} ${path.split("/")[1]}: rate limited`, wait);
      }
      throw Object.assign(
        new Error(`Matrix ${method} /${path.split("/")[1]}: ${describe(error)}`),
        {
          httpStatus: limited.httpStatus,
        },
      );
    }
  }
}

/** A timeline event as a channel message; undefined for what Radar does not read. */
function receivedOf(roomId: string, event: Json): ReceivedMessage | undefined {
  const base = {
    channel: "matrix" as const,
    externalId: String(event.event_id),
    chatId: roomId,
    senderId: String(event.sender),
    verified: true,
    attachments: [] as ReceivedAttachment[],
    sentAt: typeof event.origin_server_ts === "number"
      ? new Date(event.origin_server_ts).toISOString()
      : undefined,
  };
  const relation = event.content?.["m.relates_to"];
  if (event.type === "m.reaction" && relation?.rel_type === "m.annotation") {
    const action = reactionAction(String(relation.key ?? ""));
    if (!action || typeof relation.event_id !== "string") return undefined;
    return { ...base, text: "", answer: { key: relation.event_id, action } };
  }
  if (event.type !== "m.room.message" || typeof event.content?.body !== "string") return undefined;
  // An edit of an earlier message is not a new message.
  if (relation?.rel_type === "m.replace") return undefined;
  const content = event.content;
  const replyTo = relation?.["m.in_reply_to"]?.event_id;
  const text = withoutReplyFallback(content.body);
  if (content.msgtype === "m.file" || content.msgtype === "m.image") {
    return {
      ...base,
      text: "",
      attachments: [{
        ref: String(content.url ?? ""),
        name: String(content.filename ?? content.body).slice(0, 200),
        mimeType: content.info?.mimetype,
        size: typeof content.info?.size === "number" ? content.info.size : undefined,
      }],
    };
  }
  const answer = typeof replyTo === "string" ? replyAction(text) : undefined;
  return {
    ...base,
    text,
    replyTo: typeof replyTo === "string" ? replyTo : undefined,
    ...(answer ? { answer: { key: replyTo, action: answer } } : {}),
  };
}

/** 👍 ✅ approve, 👎 ❌ deny (variation selectors ignored). */
function reactionAction(key: string): "approve" | "deny" | undefined {
  const bare = key.replace(/[\uFE0E\uFE0F]/g, "").replace(/\p{Emoji_Modifier}/gu, "");
  if (["👍", "✅", "✔"].includes(bare)) return "approve";
  if (["👎", "❌", "✖"].includes(bare)) return "deny";
  return undefined;
}

/** A reply that is only yes or no answers the question it replies to. */
function replyAction(text: string): "approve" | "deny" | undefined {
  const word = text.trim().toLowerCase().replace(/[.!]+$/, "");
  if (["yes", "y", "approve", "ok", "go", "do it"].includes(word)) return "approve";
  if (["no", "n", "deny", "don't", "stop"].includes(word)) return "deny";
  return undefined;
}

/** Drops the "> <@user> quoted text" fallback older clients put before a reply. */
function withoutReplyFallback(body: string): string {
  const lines = body.split("\n");
  if (!lines[0]?.startsWith("> ")) return body;
  const rest = lines.findIndex((line) => !line.startsWith("> "));
  return rest < 0 ? body : lines.slice(rest).join("\n").trim();
}

function safeRetryAfter(error: { getRetryAfterMs?: () => number | null }): number {
  try {
    return error.getRetryAfterMs?.() ?? 5000;
  } catch {
    return 5000;
  }
}

function describe(error: unknown): string {
  const matrix = error as { errcode?: string; data?: { error?: string }; httpStatus?: number };
  if (matrix.errcode) {
    return `${matrix.httpStatus ?? ""} ${matrix.errcode}: ${matrix.data?.error ?? ""}`.trim();
  }
  return firstLine(error);
}
