/** MailReader over IMAP: headers of recent or unread mail, one message's text, the \Seen flag. */
import type { FetchMessageObject, ImapFlow, MessageStructureObject } from "imapflow";
import type { MailHeader, MailMessage, MailReader } from "../../core/source_ports.ts";
import { type EmailAccount, type ImapSettings, MailError, withImap } from "./imap_connection.ts";
import { htmlToText } from "../../adapters/network/html_to_text.ts";

/** Settings of the reader. */
export interface MailReaderSettings extends ImapSettings {
  maxBodyChars: number;
}

/** The unread messages of a mailbox as the new-mail check sees them. */
export interface UnreadSnapshot {
  uidValidity: string;
  unreadUids: number[];
}

/** Reads the configured accounts; a session per call. */
export class ImapMailReader implements MailReader {
  constructor(
    private readonly accountList: readonly EmailAccount[],
    private readonly settings: MailReaderSettings,
  ) {}

  accounts(): string[] {
    return this.accountList.map((account) => account.name);
  }

  #account(name: string): EmailAccount {
    const account = this.accountList.find((entry) => entry.name === name);
    if (!account) {
      throw new MailError(`No email account "${name}" (have: ${this.accounts().join(", ")})`);
    }
    return account;
  }

  /** Runs `work` in the account's mailbox under its lock (read-only unless `readOnly` is false). */
  #inMailbox<T>(
    account: EmailAccount,
    signal: AbortSignal | undefined,
    work: (client: ImapFlow) => Promise<T>,
    readOnly = true,
  ): Promise<T> {
    return withImap(account, this.settings, async (client) => {
      const lock = await client.getMailboxLock(
        account.mailbox,
        readOnly ? { readOnly } : undefined,
      );
      try {
        return await work(client);
      } finally {
        lock.release();
      }
    }, signal);
  }

  /** UIDVALIDITY and the UIDs of unread messages (read-only: flags are not touched). */
  unread(name: string, signal?: AbortSignal): Promise<UnreadSnapshot> {
    const account = this.#account(name);
    return this.#inMailbox(account, signal, async (client) => {
      const mailbox = client.mailbox;
      const uids = await client.search({ seen: false }, { uid: true });
      return {
        uidValidity: mailbox ? String(mailbox.uidValidity) : "0",
        unreadUids: (uids || []).sort((a, b) => a - b),
      };
    });
  }

  /** Headers of the given UIDs (for the new-mail events). */
  headers(name: string, uids: number[], signal?: AbortSignal): Promise<MailHeader[]> {
    const account = this.#account(name);
    if (uids.length === 0) return Promise.resolve([]);
    return this.#inMailbox(
      account,
      signal,
      (client) => fetchHeaders(client, account.name, uids.join(",")),
    );
  }

  /** The raw header block of each given UID (for checks that read more than the envelope). */
  rawHeaders(name: string, uids: number[], signal?: AbortSignal): Promise<Map<number, Uint8Array>> {
    const account = this.#account(name);
    if (uids.length === 0) return Promise.resolve(new Map());
    return this.#inMailbox(account, signal, async (client) => {
      const found = new Map<number, Uint8Array>();
      for await (
        const message of client.fetch(uids.join(","), { uid: true, headers: true }, { uid: true })
      ) if (message.headers) found.set(message.uid, message.headers);
      return found;
    });
  }

  list(
    name: string,
    options: { unreadOnly: boolean; limit: number },
    signal?: AbortSignal,
  ): Promise<MailHeader[]> {
    const account = this.#account(name);
    return this.#inMailbox(account, signal, async (client) => {
      let uids = await client.search(options.unreadOnly ? { seen: false } : { all: true }, {
        uid: true,
      }) || [];
      uids = uids.sort((a, b) => a - b).slice(-options.limit);
      if (uids.length === 0) return [];
      const found = await fetchHeaders(client, account.name, uids.join(","));
      return found.sort((a, b) => b.uid - a.uid);
    });
  }

  read(name: string, uid: number, signal?: AbortSignal): Promise<MailMessage | undefined> {
    const account = this.#account(name);
    const maxChars = this.settings.maxBodyChars;
    return this.#inMailbox(account, signal, async (client) => {
      const message = await client.fetchOne(String(uid), {
        uid: true,
        envelope: true,
        flags: true,
        internalDate: true,
        bodyStructure: true,
      }, { uid: true });
      if (!message) return undefined;
      const header = headerOf(account.name, message);
      const part = message.bodyStructure ? textPart(message.bodyStructure) : undefined;
      if (!part) return { ...header, text: "(no text part)", truncated: false };
      // Four bytes per character at most: enough for maxChars of any UTF-8 text.
      const download = await client.download(String(uid), part.part ?? "1", {
        uid: true,
        maxBytes: maxChars * 4,
      });
      const raw = download.content ? await streamText(download.content) : "";
      const text = part.type === "text/html" ? htmlToText(raw).text : raw;
      const cleaned = text.replace(/\r\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
      return {
        ...header,
        text: cleaned.slice(0, maxChars),
        truncated: cleaned.length > maxChars || (download.meta?.expectedSize ?? 0) > maxChars * 4,
      };
    });
  }

  markRead(name: string, uid: number, signal?: AbortSignal): Promise<boolean> {
    const account = this.#account(name);
    const seen = (client: ImapFlow) =>
      client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
    return this.#inMailbox(account, signal, seen, false);
  }
}

async function fetchHeaders(client: ImapFlow, account: string, range: string) {
  const found: MailHeader[] = [];
  for await (
    const message of client.fetch(range, {
      uid: true,
      envelope: true,
      flags: true,
      internalDate: true,
    }, {
      uid: true,
    })
  ) found.push(headerOf(account, message));
  return found;
}

function headerOf(account: string, message: FetchMessageObject): MailHeader {
  const sender = message.envelope?.from?.[0];
  const from = sender
    ? (sender.name ? `${sender.name} <${sender.address ?? ""}>` : sender.address ?? "")
    : "(unknown sender)";
  const when = message.envelope?.date ?? message.internalDate;
  const date = when instanceof Date && !isNaN(when.getTime())
    ? when.toISOString()
    : typeof when === "string"
    ? when
    : "";
  return {
    account,
    uid: message.uid,
    from: oneLine(from, 200),
    subject: oneLine(message.envelope?.subject || "(no subject)", 300),
    date,
    unread: !message.flags?.has("\\Seen"),
  };
}

function oneLine(text: string, max: number): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, max);
}

/** The first text/plain part, else the first text/html part (attachments skipped). */
function textPart(node: MessageStructureObject): MessageStructureObject | undefined {
  const parts: MessageStructureObject[] = [];
  const walk = (current: MessageStructureObject) => {
    if (current.childNodes?.length) current.childNodes.forEach(walk);
    else if (current.disposition !== "attachment") parts.push(current);
  };
  walk(node);
  return parts.find((part) => part.type === "text/plain") ??
    parts.find((part) => part.type === "text/html");
}

async function streamText(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
