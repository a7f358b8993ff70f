/**
 * An approval asked in a chat: the full call (every argument whole, never cut; a call too long
 * for one message is its short description plus the dashboard link to the whole), why it needs a
 * yes, when it expires, and how to answer here: Telegram buttons whose callback data is a
 * single-use secret, Matrix a 👍/👎 reaction or a yes/no reply to the question, email a reply
 * carrying the approval's one-time code. Each way to answer is an answer key, stored as a hash,
 * bound to the approval and to the person asked; the first one used kills the others.
 */
import type { ChannelButton, ChannelName } from "../core/channel.ts";
import {
  type ApprovalRecord,
  decidedWhere,
  describeApproval,
  parseArguments,
} from "../away/mod.ts";
import { randomCode } from "./channel_owners.ts";

/** One way to answer, before it is hashed and stored. */
export interface AskKey {
  key: string;
  action: "approve" | "deny" | "either";
}

/** The question as one channel shows it. */
export interface RenderedAsk {
  text: string;
  buttons?: ChannelButton[];
  /** Answer keys known before sending (Matrix's key is the sent event's id, known after). */
  keys: AskKey[];
}

/** What rendering needs besides the approval. */
export interface AskOptions {
  channel: ChannelName;
  maxChars: number;
  /** The approval's page on the dashboard. */
  link: string;
  /** The expiry as people read it (in `radar.timezone`). */
  expires: string;
}

/** The stored key of a Matrix question: the event id of the question sent. */
export function askEventKey(eventId: string): string {
  return `event:${eventId}`;
}

/** The approval codes a mail's own words carry ("APPROVE-…", "DENY-…"), upper-cased. */
export function mailCodes(text: string): string[] {
  return [...text.matchAll(/\b(APPROVE|DENY)-([A-Z0-9]{10})\b/gi)]
    .map((match) => `${match[1]}-${match[2]}`.toUpperCase());
}

/** The question for `record` on `options.channel`. */
export function renderAsk(record: ApprovalRecord, options: AskOptions): RenderedAsk {
  const { channel } = options;
  let keys: AskKey[] = [];
  let buttons: ChannelButton[] | undefined;
  let how: string;
  if (channel === "telegram") {
    const approve = `ap:${randomCode(24)}`;
    const deny = `dn:${randomCode(24)}`;
    keys = [{ key: approve, action: "approve" }, { key: deny, action: "deny" }];
    buttons = [{ label: "Approve", data: approve }, { label: "Deny", data: deny }];
    how = "";
  } else if (channel === "matrix") {
    how = "React 👍 to approve or 👎 to deny (or reply yes or no to this message).";
  } else {
    const approve = `APPROVE-${randomCode(10)}`;
    const deny = `DENY-${randomCode(10)}`;
    keys = [{ key: approve, action: "approve" }, { key: deny, action: "deny" }];
    how = `Reply to this mail with ${approve} to do it, or ${deny} to leave it undone.`;
  }
  const text = framed(record, options, `Radar asks (#${record.id})`, [
    `Expires ${options.expires}.`,
    ...(how ? [how] : []),
  ]);
  return { text, buttons, keys };
}

/**
 * The question once decided or expired, as its edit shows it: the same call, and how it ended
 * instead of how to answer (no buttons, nothing to answer).
 */
export function renderClosed(record: ApprovalRecord, options: Omit<AskOptions, "expires">): string {
  return framed(record, options, `Radar asked (#${record.id})`, [closedLine(record)]);
}

/** How an approval ended, in one line ("Approved in Telegram: done."). */
export function closedLine(record: Pick<ApprovalRecord, "state" | "decidedVia">): string {
  const where = record.decidedVia ? ` ${decidedWhere(record.decidedVia)}` : "";
  switch (record.state) {
    case "done":
      return `Approved${where}: done.`;
    case "failed":
      return `Approved${where}: it failed.`;
    case "running":
      return `Approved${where}: running.`;
    case "denied":
      return `Denied${where}: not done.`;
    case "expired":
      return "Expired unanswered: not done.";
    default:
      return "Waiting for an answer.";
  }
}

/** The question's lines around the call (whole, or its summary and link when too long). */
function framed(
  record: ApprovalRecord,
  options: Pick<AskOptions, "maxChars" | "link">,
  head: string,
  tail: string[],
): string {
  const frame = (call: string) =>
    [
      `${head}: may I run ${record.tool}?`,
      "",
      call,
      "",
      `Why: ${record.reasons.join("; ")}`,
      ...(record.untrustedSources.length
        ? [`The run had read: ${record.untrustedSources.join(", ")}`]
        : []),
      ...tail,
    ].join("\n");
  const whole = frame(fullCall(record));
  return whole.length <= options.maxChars ? whole : frame(
    `${describeApproval(record)}\nThe whole call is too long for a message: ${options.link}`,
  );
}

/** The call with every argument whole: the tool, then one "name: value" per argument. */
export function fullCall(record: Pick<ApprovalRecord, "tool" | "arguments" | "summary">): string {
  const args = parseArguments(record.arguments);
  const lines = Object.entries(args).map(([name, value]) =>
    `  ${name}: ${typeof value === "string" ? value : JSON.stringify(value, null, 2)}`
  );
  return [
    ...(record.summary ? [record.summary, ""] : []),
    record.tool,
    ...(lines.length ? lines : [`  ${record.arguments}`]),
  ].join("\n");
}
