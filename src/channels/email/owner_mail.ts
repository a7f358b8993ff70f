/**
 * Whether a mail's header block is the owner's, as the email channel decides it: the receiving
 * server's Authentication-Results must show DKIM or SPF pass for one of `allowed_senders`
 * (`mail_authentication.ts`). The channel takes such mail as the owner's words; the email
 * source asks the same question of the channel's account, so such mail never becomes an event
 * too, whichever of them reads the mailbox first.
 */
import type { RadarConfig } from "../../config/schema.ts";
import { type MailAuthentication, mailAuthentication } from "./mail_authentication.ts";
import { fromAddresses, headerValues, type ParsedMail, parseMail } from "./mail_text.ts";

/** Whose mail counts as the owner's (the channel's settings). */
export interface OwnerMailRules {
  allowedSenders: readonly string[];
  authservId: string;
}

/** The verdict on a header block, with its parsed head and From addresses. */
export interface OwnerMailVerdict {
  verdict: MailAuthentication;
  head: ParsedMail;
  from: string[];
}

/** Judges a mail by its raw header block (the whole mail parses too). */
export async function judgeOwnerMail(
  headers: Uint8Array,
  rules: OwnerMailRules,
): Promise<OwnerMailVerdict> {
  const head = await parseMail(headers);
  const from = await fromAddresses(head);
  const verdict = mailAuthentication({
    authenticationResults: headerValues(head, "authentication-results"),
    from,
    allowed: rules.allowedSenders,
    authservId: rules.authservId,
  });
  return { verdict, head, from };
}

/**
 * The email channel's account and a test of a header block, for the email source: mail that
 * passes is the channel's, never an event. Undefined when no email channel is configured.
 */
export function channelMailTest(
  config: RadarConfig,
): { account: string; isOwner: (headers: Uint8Array) => Promise<boolean> } | undefined {
  const email = config.channels.email;
  if (!email) return undefined;
  const rules = { allowedSenders: email.allowed_senders, authservId: email.authserv_id };
  return {
    account: email.account,
    isOwner: async (headers) => (await judgeOwnerMail(headers, rules)).verdict.owner,
  };
}
