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
import { type ApprovalRecord, describeApproval, parseArguments } from "../away/mod.ts";
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
  const frame = (call: string, how: string) =>
    [
      `Radar asks (#${record.id}): may I run ${record.tool}?`,
      "",
      call,
      "",
      `Why: ${record.reasons.join("; ")}`,
      ...(record.untrustedSources.length
        ? [`The run had read: ${record.untrustedSources.join(", ")}`]
        : []),
      `Expires ${options.expires}.`,
      ...(how ? [how] : []),
    ].join("\n");
  const here = answerWays(options.channel, true);
  const whole = frame(fullCall(record), here.how);
  if (whole.length <= options.maxChars) {
    return { text: whole, buttons: here.buttons, keys: here.keys, whole: true };
  }
  const denyOnly = answerWays(options.channel, false);
  const text = frame(
    `${describeApproval(record)}\nThe whole call is too long for a message: see it and approve ` +
      `it on the dashboard, ${options.link}`,
    denyOnly.how,
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
