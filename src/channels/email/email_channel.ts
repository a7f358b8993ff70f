/**
 * Email as a chat channel: the mailbox of one of `email.accounts` is read over IMAP (the existing
 * imapflow session code) for mail newer than the stored UID, and answers go out over SMTP. A mail
 * is the owner's only when the receiving server's Authentication-Results shows DKIM or SPF pass
 * for an allowed sender (mail_authentication.ts); any other mail is left alone here (the
 * email source makes it a heartbeat event: untrusted text, never a command). The owner's mail is
 * marked read once taken, and the email source asks the same question (owner_mail.ts) before it
 * announces mail of this account, so the owner's mail is never an event too. The first look only
 * takes the position: mail already there is not treated as new.
 */
import type { ImapFlow } from "imapflow";
import type {
  ChatChannel,
  OutgoingMessage,
  ReceivedAttachment,
  ReceivedBatch,
  ReceivedMessage,
  SendResult,
} from "../../core/channel.ts";
import {
  type EmailAccount,
  type ImapSettings,
  withImap,
} from "../../sources/email/imap_connection.ts";
import { checkSize } from "../capped_download.ts";
import { ownWords, parseMail } from "./mail_text.ts";
import { judgeOwnerMail } from "./owner_mail.ts";
import type { SmtpSender } from "./smtp_sender.ts";

/** What the adapter is built from. */
export interface EmailChannelSettings {
  account: EmailAccount;
  imap: ImapSettings;
  smtp: SmtpSender;
  allowedSenders: readonly string[];
  authservId: string;
  pollSeconds: number;
  /** Mail larger than this is not downloaded (the owner is told). */
  maxMessageBytes: number;
  /** Called for mail that is not the owner's (logged; never a command). */
  onUntrusted?: (from: string, reason: string) => void;
}

/** Mail taken per look at most (the rest comes at the next). */
const maxPerLook = 20;

/** The owner's mailbox and Radar's SMTP server as a chat channel. */
export class EmailChannel implements ChatChannel {
  readonly name = "email";
  /** Mail has no practical limit; very long answers still get a "see the dashboard" cut. */
  readonly maxChars = 100_000;
  readonly maxParts = 1;
  #looked = false;

  constructor(private readonly settings: EmailChannelSettings) {}

  async receive(cursor: string | undefined, signal: AbortSignal): Promise<ReceivedBatch> {
    if (this.#looked) await pause(this.settings.pollSeconds * 1000, signal);
    this.#looked = true;
    const { account, imap } = this.settings;
    return await withImap(account, imap, async (client) => {
      const lock = await client.getMailboxLock(account.mailbox);
      try {
        return await this.#look(client, cursor);
      } finally {
        lock.release();
      }
    }, signal);
  }

  async #look(client: ImapFlow, cursor: string | undefined): Promise<ReceivedBatch> {
    const mailbox = client.mailbox;
    if (!mailbox) return { messages: [], cursor };
    const validity = String(mailbox.uidValidity);
    const [storedValidity, storedUid] = (cursor ?? "").split(":");
    if (storedValidity !== validity) {
      // The first look (or a rebuilt mailbox): mail already there is history.
      return { messages: [], cursor: `${validity}:${Number(mailbox.uidNext) - 1}` };
    }
    const after = Number(storedUid);
    const uids = ((await client.search({ uid: `${after + 1}:*` }, { uid: true })) || [])
      .filter((uid) => uid > after).sort((a, b) => a - b).slice(0, maxPerLook);
    if (!uids.length) return { messages: [], cursor };
    // imapflow runs one command at a time: the headers are all read before any mail is fetched.
    const heads: Array<{ uid: number; size: number; headers?: Uint8Array }> = [];
    for await (
      const item of client.fetch(uids.join(","), { uid: true, size: true, headers: true }, {
        uid: true,
      })
    ) heads.push({ uid: item.uid, size: item.size ?? 0, headers: item.headers });
    const messages: ReceivedMessage[] = [];
    for (const head of heads) {
      const received = await this.#received(client, validity, head.uid, head.size, head.headers);
      if (received) messages.push(received);
    }
    const owned = messages.map((message) => message.externalId.split(":")[1]);
    if (owned.length) {
      await client.messageFlagsAdd(owned.join(","), ["\\Seen"], { uid: true }).catch(() => {});
    }
    return { messages, cursor: `${validity}:${uids[uids.length - 1]}` };
  }

  async #received(
    client: ImapFlow,
    validity: string,
    uid: number,
    size: number,
    headers: Uint8Array | undefined,
  ): Promise<ReceivedMessage | undefined> {
    if (!headers) return undefined;
    const { verdict, head, from } = await judgeOwnerMail(headers, this.settings);
    if (!verdict.owner) {
      this.settings.onUntrusted?.(from.join(", "), verdict.reason);
      return undefined;
    }
    const base = {
      channel: "email" as const,
      externalId: `${validity}:${uid}`,
      chatId: verdict.address,
      senderId: verdict.address,
      senderName: from[0],
      verified: true,
      thread: { subject: head.subject, messageId: head.messageId },
      sentAt: head.date ? new Date(head.date).toISOString() : undefined,
    };
    if (size > this.settings.maxMessageBytes) {
      return {
        ...base,
        text: "",
        attachments: [{ ref: `${validity}:${uid}:*`, name: head.subject || "the mail", size }],
      };
    }
    const source = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
    if (!source || !source.source) return undefined;
    const mail = await parseMail(source.source);
    return {
      ...base,
      text: ownWords(mail),
      attachments: mail.attachments
        .map((attachment, index) => ({ attachment, index }))
        .filter(({ attachment }) => attachment.disposition !== "inline" || attachment.filename)
        .map(({ attachment, index }) => ({
          ref: `${validity}:${uid}:${index}`,
          name: attachment.filename ?? `attachment-${index + 1}`,
          mimeType: attachment.mimeType,
          size: byteLength(attachment.content),
        })),
    };
  }

  send(message: OutgoingMessage): Promise<SendResult> {
    return this.settings.smtp.send(message);
  }

  async download(
    attachment: ReceivedAttachment,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    checkSize(attachment.size, maxBytes);
    const [validity, uid, index] = attachment.ref.split(":");
    const { account, imap } = this.settings;
    return await withImap(account, imap, async (client) => {
      const lock = await client.getMailboxLock(account.mailbox, { readOnly: true });
      try {
        if (String(client.mailbox && client.mailbox.uidValidity) !== validity) {
          throw new Error("the mailbox changed since the mail came");
        }
        const found = await client.fetchOne(uid, { uid: true, source: true }, { uid: true });
        if (!found || !found.source) throw new Error("the mail is gone from the mailbox");
        const part = (await parseMail(found.source)).attachments[Number(index)];
        if (!part) throw new Error("the attachment is gone from the mail");
        const bytes = typeof part.content === "string"
          ? new TextEncoder().encode(part.content)
          : new Uint8Array(part.content as ArrayBuffer);
        checkSize(bytes.length, maxBytes);
        return bytes;
      } finally {
        lock.release();
      }
    }, signal);
  }

  close(): void {
    this.settings.smtp.close();
  }
}

function byteLength(content: ArrayBuffer | Uint8Array | string): number {
  return typeof content === "string" ? content.length : content.byteLength;
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
