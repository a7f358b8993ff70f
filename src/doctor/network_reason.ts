/**
 * Why a server did not answer, in a few words. Deno's fetch says only "fetch failed"; the reason
 * (refused, no such host, a timeout, TLS) is in its `cause`, and libraries wrap it once more.
 */
import { firstLine } from "../core/errors.ts";

/** A fetch failure in a few words: refused, unknown host, timed out, or its innermost line. */
export function networkReason(error: unknown): string {
  const said: string[] = [];
  for (let part = error, depth = 0; part != null && depth < 4; depth++) {
    said.push(firstLine(part, 300));
    part = (part as { cause?: unknown })?.cause;
  }
  const text = said.join(" ");
  if (/refused/i.test(text)) return "connection refused";
  if (/dns|resolve|not known|ENOTFOUND/i.test(text)) return "the host name does not resolve";
  if (/timed? ?out|timeout|aborted/i.test(text)) return "no answer in time";
  if (/certificate|tls|ssl/i.test(text)) return `TLS failed (${said.at(-1)})`;
  return said.at(-1)!;
}
