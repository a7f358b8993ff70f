/**
 * Telegram through the Bot API (npm grammY's `Api` client, its browser build on the global
 * fetch): getUpdates long polls from the stored offset (the offset is stored with the updates, so
 * an update is acknowledged only once it is in the database), sendMessage with inline buttons,
 * editMessageText for an answered question, answerCallbackQuery, and getFile for attachments.
 * `api_root` points at a self-hosted Bot API server (or the tests' stand-in).
 */
import type { Api } from "grammy/web";
import type { Message, Update } from "grammy/types";
import type {
  ApprovalAnswer,
  ChatChannel,
  OutgoingMessage,
  ReceivedAttachment,
  ReceivedBatch,
  ReceivedMessage,
  SendResult,
} from "../../core/channel.ts";
import { checkSize, fetchCapped } from "../capped_download.ts";
import { firstLine } from "../../core/errors.ts";

/** grammY's signal type (abort-controller's declaration of the same standard AbortSignal). */
type ApiSignal = Parameters<Api["getFile"]>[1];
const apiSignal = (signal: AbortSignal) => signal as unknown as ApiSignal;

/** What the adapter is built from. */
export interface TelegramSettings {
  token: string;
  apiRoot: string;
  pollSeconds: number;
  fetch?: typeof fetch;
}

/** Opens the adapter (grammY is loaded here, on first use). */
export async function openTelegramChannel(settings: TelegramSettings): Promise<ChatChannel> {
  const { Api } = await import("grammy/web");
  const api = new Api(settings.token, {
    apiRoot: settings.apiRoot.replace(/\/+$/, ""),
    fetch: settings.fetch ?? fetch,
    // A long poll waits `pollSeconds`; the request may take that long plus the network's share.
    timeoutSeconds: settings.pollSeconds + 30,
  });
  return new TelegramChannel(api, settings);
}

/** A Telegram bot as a chat channel. */
export class TelegramChannel implements ChatChannel {
  readonly name = "telegram";
  /** The Bot API's limit for a message's text. */
  readonly maxChars = 4096;
  readonly maxParts = 8;

  constructor(private readonly api: Api, private readonly settings: TelegramSettings) {}

  async receive(cursor: string | undefined, signal: AbortSignal): Promise<ReceivedBatch> {
    let updates: Update[];
    try {
      updates = await this.api.getUpdates({
        offset: cursor ? Number(cursor) : undefined,
        timeout: this.settings.pollSeconds,
        allowed_updates: ["message", "callback_query"],
      }, apiSignal(signal));
    } catch (error) {
      throw new Error(`Telegram getUpdates failed: ${describe(error)}`);
    }
    if (!updates.length) return { messages: [], cursor };
    const next = Math.max(...updates.map((update) => update.update_id)) + 1;
    return {
      messages: updates.map(receivedOf).filter((message) => message !== undefined),
      cursor: String(next),
    };
  }

  async send(message: OutgoingMessage, signal: AbortSignal): Promise<SendResult> {
    const keyboard = message.buttons?.length
      ? {
        inline_keyboard: [
          message.buttons.map((button) => ({ text: button.label, callback_data: button.data })),
        ],
      }
      : undefined;
    try {
      if (message.edit) {
        await this.api.editMessageText(message.chatId, Number(message.edit), message.text, {
          reply_markup: keyboard ?? { inline_keyboard: [] },
        }, apiSignal(signal));
        return { sent: true, externalId: message.edit };
      }
      const sent = await this.api.sendMessage(message.chatId, message.text, {
        ...(keyboard ? { reply_markup: keyboard } : {}),
        link_preview_options: { is_disabled: true },
      }, apiSignal(signal));
      return { sent: true, externalId: String(sent.message_id) };
    } catch (error) {
      return failure(error);
    }
  }

  async download(
    attachment: ReceivedAttachment,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    let path: string | undefined;
    let size: number | undefined;
    try {
      const file = await this.api.getFile(attachment.ref, apiSignal(signal));
      path = file.file_path;
      size = file.file_size;
    } catch (error) {
      throw new Error(`Telegram getFile failed: ${describe(error)}`);
    }
    if (!path) throw new Error("Telegram has no file path for this attachment");
    checkSize(size, maxBytes);
    const root = this.settings.apiRoot.replace(/\/+$/, "");
    const file = path.split("/").map(encodeURIComponent).join("/");
    // The URL carries the token: the error lines never name it.
    return await fetchCapped(
      this.settings.fetch ?? fetch,
      `${root}/file/bot${this.settings.token}/${file}`,
      { signal },
      maxBytes,
      "Telegram file download",
    );
  }

  async acknowledge(answer: ApprovalAnswer, note: string, signal: AbortSignal): Promise<void> {
    if (!answer.callbackId) return;
    try {
      await this.api.answerCallbackQuery(
        answer.callbackId,
        { text: note.slice(0, 200) },
        apiSignal(signal),
      );
    } catch { /* the button's spinner stops by itself */ }
  }

  close(): void {}
}

/** A received update as a channel message; undefined for what Radar does not read. */
function receivedOf(update: Update): ReceivedMessage | undefined {
  const query = update.callback_query;
  if (query) {
    const chat = query.message?.chat.id ?? query.from.id;
    return {
      channel: "telegram",
      externalId: String(update.update_id),
      chatId: String(chat),
      senderId: String(query.from.id),
      senderName: nameOf(query.from),
      verified: true,
      text: "",
      attachments: [],
      answer: { key: query.data ?? "", callbackId: query.id },
    };
  }
  const message = update.message;
  if (!message?.from) return undefined;
  return {
    channel: "telegram",
    externalId: String(update.update_id),
    chatId: String(message.chat.id),
    senderId: String(message.from.id),
    senderName: nameOf(message.from),
    verified: true,
    text: message.text ?? message.caption ?? "",
    attachments: attachmentsOf(message),
    forwardedFrom: forwardedFrom(message),
    replyTo: message.reply_to_message ? String(message.reply_to_message.message_id) : undefined,
    sentAt: new Date(message.date * 1000).toISOString(),
  };
}

function nameOf(user: { first_name: string; last_name?: string; username?: string }): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ") || user.username || "";
}

function attachmentsOf(message: Message): ReceivedAttachment[] {
  if (message.document) {
    const document = message.document;
    return [{
      ref: document.file_id,
      name: document.file_name ?? `document-${message.message_id}`,
      mimeType: document.mime_type,
      size: document.file_size,
    }];
  }
  const photo = message.photo?.at(-1);
  if (photo) {
    return [{
      ref: photo.file_id,
      name: `photo-${message.message_id}.jpg`,
      mimeType: "image/jpeg",
      size: photo.file_size,
    }];
  }
  return [];
}

function forwardedFrom(message: Message): string | undefined {
  const origin = message.forward_origin;
  if (!origin) return undefined;
  if (origin.type === "user") return nameOf(origin.sender_user);
  if (origin.type === "hidden_user") return origin.sender_user_name;
  if (origin.type === "chat") return origin.sender_chat.title ?? "a chat";
  return origin.chat.title ?? "a channel";
}

/** One line for a Bot API or network error. */
function describe(error: unknown): string {
  const api = error as { error_code?: number; description?: string };
  if (api.error_code) return `${api.error_code} ${api.description ?? ""}`.trim();
  return firstLine(error);
}

/** A failed send: the service's wait on 429, permanent for a chat or message that cannot be. */
function failure(error: unknown): SendResult {
  const api = error as {
    error_code?: number;
    parameters?: { retry_after?: number };
  };
  const code = api.error_code;
  return {
    sent: false,
    error: `Telegram: ${describe(error)}`,
    retryAfterMs: api.parameters?.retry_after ? api.parameters.retry_after * 1000 : undefined,
    permanent: code === 400 || code === 403,
  };
}
