/**
 * `list_email`, `read_email`, `mark_email_read`: the configured IMAP accounts through the
 * MailReader port. Headers are compact lines with the time in `radar.timezone` (offset named); a
 * body is its text part, size-capped (the agent loop wraps every tool result as untrusted data).
 * Listing every account asks each on its own: a failing account is one line among the results.
 */
import { z } from "zod";
import { type Destinations, failed, type Tool } from "../core/tool.ts";
import { defineTool } from "../core/tool_definition.ts";
import { lazyValue } from "../core/zod_issues.ts";
import { toolParameters } from "../core/tool_parameters.ts";
import type { MailHeader, MailReader } from "../core/source_ports.ts";
import { formatDateTime } from "../core/zoned_time.ts";
import { firstLine } from "../core/errors.ts";

const keywords = ["email", "mail", "inbox", "unread", "message", "messages", "sender", "imap"];

/**
 * The email tools' arguments, built on first use (offered as written in
 * src/core/tool_parameters.ts): `list` for list_email, `message` for read_email and
 * mark_email_read.
 */
const emailInputs = lazyValue(() => {
  const account = z.string().min(1).max(40).describe("Account name");
  const uid = z.number().int().positive().describe("Message UID from list_email");
  return {
    list: z.object({
      account: account.optional(),
      unread_only: z.boolean().optional(),
      limit: z.number().int().min(1).max(50).optional(),
    }),
    message: z.object({ account, uid }),
  };
});

/** list_email's arguments. */
export const listEmailInput = () => emailInputs().list;

/** read_email's and mark_email_read's arguments: one message of one account. */
export const emailMessageInput = () => emailInputs().message;

/** One header as a compact line, its time in `timeZone` ("2026-11-26 15:30 UTC+01:00"). */
export function headerLine(header: MailHeader, timeZone?: string): string {
  const at = new Date(header.date);
  const date = isNaN(at.getTime())
    ? header.date.slice(0, 40)
    : formatDateTime(at, timeZone, { zone: true });
  return `${header.account} uid ${header.uid} · ${date} · ${header.from} · ${header.subject}` +
    (header.unread ? " [unread]" : "");
}

/**
 * The three email tools over `mail`; times are shown in `timeZone` (the machine's without);
 * `serverOf` says which IMAP server an account is (absent: anywhere).
 */
export function emailTools(
  deps: { mail: MailReader; timeZone?: string; serverOf?: (account: string) => Destinations },
): Tool[] {
  const { mail, timeZone } = deps;
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
      parameters: toolParameters.list_email,
      input: listEmailInput,
      run: ({ account, unread_only, limit }, context) =>
        guard(async () => {
          const options = { unreadOnly: unread_only ?? true, limit: limit ?? 10 };
          if (account) {
            const headers = await mail.list(account, options, context.signal);
            return headers.length
              ? headers.map((header) => headerLine(header, timeZone)).join("\n")
              : "No messages.";
          }
          // Every account at once, each on its own: one broken account never hides the others.
          const names = mail.accounts();
          const answers = await Promise.allSettled(
            names.map((name) => mail.list(name, options, context.signal)),
          );
          const lines: string[] = [];
          const failures: string[] = [];
          answers.forEach((answer, index) => {
            if (answer.status === "fulfilled") {
              lines.push(...answer.value.map((header) => headerLine(header, timeZone)));
            } else failures.push(accountFailure(names[index], answer.reason));
          });
          if (failures.length && failures.length === names.length) {
            throw new Error(failures.join("\n"));
          }
          return [...(lines.length ? lines : ["No messages."]), ...failures].join("\n");
        }),
    }),
    defineTool({
      name: "read_email",
      effect: "none",
      description: "Read one email's text",
      keywords,
      parameters: toolParameters.read_email,
      input: emailMessageInput,
      run: ({ account, uid }, context) =>
        guard(async () => {
          const message = await mail.read(account, uid, context.signal);
          if (!message) return `No message with uid ${uid} in ${account}.`;
          return `${headerLine(message, timeZone)}\n\n${message.text}` +
            (message.truncated ? "\n[truncated]" : "");
        }),
    }),
    defineTool({
      name: "mark_email_read",
      // Changes the mailbox on the mail server.
      effect: "sends_out",
      destinations: ({ account }) => deps.serverOf?.(account) ?? "anywhere",
      description: "Mark an email as read",
      keywords,
      parameters: toolParameters.mark_email_read,
      input: emailMessageInput,
      run: ({ account, uid }, context) =>
        guard(async () =>
          await mail.markRead(account, uid, context.signal)
            ? `Marked ${account} uid ${uid} as read.`
            : `No message with uid ${uid} in ${account}.`
        ),
    }),
  ];
}

/** "badpw: login failed …" (one line; the reader's message usually names the account already). */
function accountFailure(name: string, reason: unknown): string {
  const message = firstLine(reason);
  const named = message.startsWith(`${name}:`) || message.includes(`account ${name}:`);
  return named ? message : `${name}: ${message}`;
}
