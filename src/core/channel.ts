/**
 * The channel port: a chat app (Telegram, Matrix, email) as a two-way conversation with Radar.
 * An adapter turns the service's updates into `ReceivedMessage`s (stored before anything is done
 * with them) and sends `OutgoingMessage`s; everything else — who may talk, which conversation, the
 * model's turn, approvals, attachments — is the same for every channel (`src/channels/`).
 */

/** The chat channels Radar talks through. */
export const channelNames = ["telegram", "matrix", "email"] as const;

/** One chat channel's name (also its `channels:` config key). */
export type ChannelName = typeof channelNames[number];

/** True for a known channel name. */
export function isChannelName(value: unknown): value is ChannelName {
  return (channelNames as readonly unknown[]).includes(value);
}

/** A file that came with a message; fetched through the adapter when it is handled. */
export interface ReceivedAttachment {
  /** The service's handle for it (Telegram file_id, Matrix mxc URL, the mail part). */
  ref: string;
  /** The name the sender gave it (untrusted: checked before it names a file). */
  name: string;
  mimeType?: string;
  size?: number;
}

/** An answer to an approval asked in the chat (a button, a reaction, a reply). */
export interface ApprovalAnswer {
  /** What identifies the question answered: callback data, the asked event's id, a mail code. */
  key: string;
  /** The answer when the service says it (a reaction, "yes"); absent: the key's own action. */
  action?: "approve" | "deny";
  /** Telegram's callback query id (answered so the button stops spinning). */
  callbackId?: string;
}

/** One message as a channel received it. */
export interface ReceivedMessage {
  channel: ChannelName;
  /** The service's own id (Telegram update_id, Matrix event id, the mail's UID): no duplicates. */
  externalId: string;
  /** Where an answer goes (Telegram chat id, Matrix room id, a mail address). */
  chatId: string;
  /** Who sent it (Telegram user id, Matrix user id, a mail address). */
  senderId: string;
  /** The sender's name as the service shows it (for titles and logs only). */
  senderName?: string;
  /**
   * The service vouches for `senderId` (always for Telegram and Matrix; for mail only when the
   * receiving server's Authentication-Results shows DKIM or SPF pass for that address).
   */
  verified: boolean;
  text: string;
  attachments: ReceivedAttachment[];
  /** Set when this is an answer to an approval rather than words for the model. */
  answer?: ApprovalAnswer;
  /**
   * Where forwarded content came from ("forwarded from Jane"): the text is someone else's words,
   * so it reaches the model as untrusted text, never as the owner's.
   */
  forwardedFrom?: string;
  /** The message it replies to (a Matrix event id, a Message-ID). */
  replyTo?: string;
  /** Mail only: the subject and Message-ID, so the answer stays in the thread. */
  thread?: { subject?: string; messageId?: string };
  /** When the service says it was sent (ISO), if it does. */
  sentAt?: string;
}

/** A button under an outgoing message (Telegram inline keyboard). */
export interface ChannelButton {
  label: string;
  /** Callback data (≤ 64 bytes on Telegram). */
  data: string;
}

/** One message to send. */
export interface OutgoingMessage {
  /** Radar's id of the message: the same on every retry (Matrix's transaction id). */
  id: string;
  chatId: string;
  text: string;
  buttons?: ChannelButton[];
  /** Mail: the subject and the Message-ID answered (In-Reply-To); Matrix: the event replied to. */
  subject?: string;
  replyTo?: string;
  /** Replace this earlier message of Radar's instead of sending a new one (Telegram edit). */
  edit?: string;
}

/** What a send did. */
export type SendResult =
  | { sent: true; externalId?: string }
  | {
    sent: false;
    error: string;
    /** The service asked to wait this long before trying again (429). */
    retryAfterMs?: number;
    /** Trying again cannot help (a chat that does not exist, a refused address). */
    permanent?: boolean;
  };

/** A batch of updates and the cursor to store with them (stored together, then acknowledged). */
export interface ReceivedBatch {
  messages: ReceivedMessage[];
  /** The service's position after this batch (offset, since token, last UID); absent: unchanged. */
  cursor?: string;
  /** Ids of earlier messages their senders took back (Matrix redactions). */
  withdrawn?: string[];
}

/** A failure after which the service asked Radar to wait (a 429 with its retry time). */
export class ChannelBusyError extends Error {
  override name = "ChannelBusyError";
  constructor(message: string, readonly retryAfterMs: number) {
    super(message);
  }
}

/** Port: one chat channel's adapter. */
export interface ChatChannel {
  readonly name: ChannelName;
  /** The longest text one message may carry; longer answers are split. */
  readonly maxChars: number;
  /** How many messages one answer may become before the rest is left to the dashboard. */
  readonly maxParts: number;
  /**
   * Waits for the next updates after `cursor` (a long poll) and returns them; throws one line on
   * failure (the caller backs off). `signal` ends the wait.
   */
  receive(cursor: string | undefined, signal: AbortSignal): Promise<ReceivedBatch>;
  /** Sends one message; never throws. */
  send(message: OutgoingMessage, signal: AbortSignal): Promise<SendResult>;
  /** The bytes of an attachment, at most `maxBytes` (throws one line when larger or unreachable). */
  download(
    attachment: ReceivedAttachment,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Uint8Array>;
  /** Tells the service a button press was seen (Telegram), with a short note; never throws. */
  acknowledge?(answer: ApprovalAnswer, note: string, signal: AbortSignal): Promise<void>;
  /** Ends open connections. */
  close(): void;
}
