/**
 * "You approve exactly what you saw": an approval shows its call whole (the dashboard, the CLI,
 * the phone's page) and is bound to a hash of what it shows — the tool, the arguments as stored,
 * the summary (a browser submission's method, target and fields), the preview (a file write's
 * diff) and what the preview was taken against (the file's hash, or that there was none). The
 * hash is taken when the approval is asked; approving runs the call only while the stored call
 * still hashes the same, and, from a page that showed it, only when that page showed this very
 * hash (the file itself is compared again when approving: `ApprovalService`).
 */
import { sha256Hex } from "../core/bytes.ts";
import type { ApprovalRecord } from "./approval_ports.ts";

/** The parts of an approval that say what its call does (what a person is shown). */
export type ShownCall = Pick<
  ApprovalRecord,
  "tool" | "arguments" | "summary" | "preview" | "previewBase"
>;

/**
 * The hash of what an approval shows (64 hex digits). The preview's base joins it only when
 * there is one, so approvals asked before Radar recorded it keep their hash.
 */
export function shownHash(call: ShownCall): Promise<string> {
  return sha256Hex(
    JSON.stringify([
      "radar approval shown v1",
      call.tool,
      call.arguments,
      call.summary ?? null,
      call.preview ?? null,
      ...(call.previewBase === undefined ? [] : [call.previewBase]),
    ]),
  );
}

/**
 * Why `record` may not run now, in one line, or undefined: it has no hash (asked before Radar
 * bound approvals to what they show), its stored call no longer hashes to what was shown, or the
 * page the yes came from showed another version (`seen`, the hash that page carried).
 */
export async function unlikeShown(
  record: ApprovalRecord,
  seen?: string,
): Promise<string | undefined> {
  const not = `Approval #${record.id} was not run:`;
  if (!record.shownHash) {
    return `${not} it was asked before approvals were bound to what they show; deny it and ask again.`;
  }
  if (await shownHash(record) !== record.shownHash) {
    return `${not} its stored call no longer matches what was shown when it was asked; deny it.`;
  }
  if (seen !== undefined && seen !== record.shownHash) {
    return `${not} the page you approved from showed another version of it; look at it again.`;
  }
  return undefined;
}

/**
 * What a file write's change was shown against, in a line (`CallPreview.base`): the file's hash
 * when the approval was asked, or that there was none; approving refuses when that changed.
 */
export function previewBaseLine(base: string | undefined): string | undefined {
  if (base === undefined) return undefined;
  if (base === "absent") {
    return "Shown against no file (there was none when asked); approving refuses if one appears.";
  }
  return `Shown against the file as it was when asked (${
    base.slice(0, 19)
  }…); approving refuses if it has changed since.`;
}
