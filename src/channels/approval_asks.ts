/**
 * An approval asked in a chat: the full call (every argument whole, never cut), why it needs a
 * yes, when it expires, and how to answer here: Telegram buttons whose callback data is a
 * single-use secret, Matrix a 👍/👎 reaction or a yes/no reply to the question, email a reply
 * carrying the approval's one-time code. Each way to answer is an answer key, stored as a hash,
 * bound to the approval and to the person asked; the first one used kills the others. A call too
 * long for one message is its short description plus the dashboard link to the whole, and is
 * approved there only: the chat offers Deny (Telegram's button, email's code), or nothing (Matrix,
 * whose reaction cannot tell which it is), since a yes here would be to a call not shown whole.
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
  /** The whole call is in the message, so it may be approved here. */
  whole: boolean;
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
  const head = `Radar asks (#${record.id})`;
  const tail = (how: string) => [`Expires ${options.expires}.`, ...(how ? [how] : [])];
  const here = answerWays(options.channel, true);
  const whole = framed(record, head, tail(here.how), fullCall(record));
  if (whole.length <= options.maxChars) {
    return { text: whole, buttons: here.buttons, keys: here.keys, whole: true };
  }
  const denyOnly = answerWays(options.channel, false);
  const text = framed(
    record,
    head,
    tail(denyOnly.how),
    `${describeApproval(record)}\nThe whole call is too long for a message: see it and approve ` +
      `it on the dashboard, ${options.link}`,
  );
  return { text, buttons: denyOnly.buttons, keys: denyOnly.keys, whole: false };
}

/** How to answer on `channel`: Approve and Deny, or (`approve` false) Deny only. */
function answerWays(
  channel: ChannelName,
  approve: boolean,
): { keys: AskKey[]; buttons?: ChannelButton[]; how: string } {
  if (channel === "telegram") {
    const ways = [
      ...(approve
        ? [{ label: "Approve", key: `ap:${randomCode(24)}`, action: "approve" as const }]
        : []),
      { label: "Deny", key: `dn:${randomCode(24)}`, action: "deny" as const },
    ];
    return {
      keys: ways.map(({ key, action }) => ({ key, action })),
      buttons: ways.map(({ label, key }) => ({ label, data: key })),
      how: "",
    };
  }
  if (channel === "matrix") {
    return {
      keys: [],
      how: approve
        ? "React 👍 to approve or 👎 to deny (or reply yes or no to this message)."
        : "Approve or deny it on the dashboard.",
    };
  }
  const yes = `APPROVE-${randomCode(10)}`;
  const no = `DENY-${randomCode(10)}`;
  return approve
    ? {
      keys: [{ key: yes, action: "approve" }, { key: no, action: "deny" }],
      how: `Reply to this mail with ${yes} to do it, or ${no} to leave it undone.`,
    }
    : {
      keys: [{ key: no, action: "deny" }],
      how: `Reply to this mail with ${no} to leave it undone.`,
    };
}

/**
 * The question once decided or expired, as its edit shows it: the same call, and how it ended
 * instead of how to answer (no buttons, nothing to answer).
 */
export function renderClosed(record: ApprovalRecord, options: Omit<AskOptions, "expires">): string {
  const head = `Radar asked (#${record.id})`;
  const tail = [closedLine(record)];
  const whole = framed(record, head, tail, fullCall(record));
  return whole.length <= options.maxChars ? whole : framed(
    record,
    head,
    tail,
    `${describeApproval(record)}\nThe whole call is too long for a message: ${options.link}`,
  );
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

/** The question's lines around `call` (the whole call, or its summary and link). */
function framed(record: ApprovalRecord, head: string, tail: string[], call: string): string {
  return [
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
