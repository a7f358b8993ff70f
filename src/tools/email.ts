/**
 * `list_email`, `read_email`, `mark_email_read`: the configured IMAP accounts through the
 * MailReader port. Headers are compact lines; a body is its text part, size-capped (the agent
 * loop wraps every tool result as untrusted data).
 */
import { z } from "zod";
import { failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import type { MailHeader, MailReader } from "../core/source_ports.ts";

const keywords = ["email", "mail", "inbox", "unread", "message", "messages", "sender", "imap"];
const account = z.string().min(1).max(40).describe("Account name");
const uid = z.number().int().positive().describe("Message UID from list_email");

/** One header as a compact line. */
export function headerLine(header: MailHeader): string {
  const date = header.date.slice(0, 16).replace("T", " ");
  return `${header.account} uid ${header.uid} · ${date} · ${header.from} · ${header.subject}` +
    (header.unread ? " [unread]" : "");
}

/** The three email tools over `mail`. */
export function emailTools(deps: { mail: MailReader }): Tool[] {
  const { mail } = deps;
  const guard = async (work: () => Promise<string>) => {
    try {
      return await work();
    } catch (error) {
      return failed((error as Error).message);
    }
  };
  return [
    defineTool({
      name: "list_email",
      effect: "none",
      description: "List recent or unread email headers",
      keywords,
      input: z.object({
        account: account.optional(),
        unread_only: z.boolean().optional(),
        limit: z.number().int().min(1).max(50).optional(),
      }),
      run: ({ account, unread_only, limit }, context) =>
        guard(async () => {
          const names = account ? [account] : mail.accounts();
          const lines: string[] = [];
          for (const name of names) {
            const headers = await mail.list(name, {
              unreadOnly: unread_only ?? true,
              limit: limit ?? 10,
            }, context.signal);
            lines.push(...headers.map(headerLine));
          }
          return lines.length ? lines.join("\n") : "No messages.";
        }),
    }),
    defineTool({
      name: "read_email",
      effect: "none",
      description: "Read one email's text",
      keywords,
      input: z.object({ account, uid }),
      run: ({ account, uid }, context) =>
        guard(async () => {
          const message = await mail.read(account, uid, context.signal);
          if (!message) return `No message with uid ${uid} in ${account}.`;
          return `${headerLine(message)}\n\n${message.text}` +
            (message.truncated ? "\n[truncated]" : "");
        }),
    }),
    defineTool({
      name: "mark_email_read",
      // Changes the mailbox on the mail server.
      effect: "sends_out",
      description: "Mark an email as read",
      keywords,
      input: z.object({ account, uid }),
      run: ({ account, uid }, context) =>
        guard(async () =>
          await mail.markRead(account, uid, context.signal)
            ? `Marked ${account} uid ${uid} as read.`
            : `No message with uid ${uid} in ${account}.`
        ),
    }),
  ];
}
