/**
 * What a mail says, as a channel message: the text the owner wrote in this mail, without the
 * quoted earlier mail a reply carries (a quoted approval code must not answer anything), and the
 * addresses of a From header. Parsing is npm postal-mime's (loaded on first use).
 */
import { htmlToText } from "../../adapters/network/html_to_text.ts";
import { untrustedNotice, wrapUntrusted } from "../../core/untrusted_text.ts";

/** A parsed mail (postal-mime's `Email`). */
export type ParsedMail = import("postal-mime").Email;

/** Parses raw mail bytes (headers alone parse too). */
export async function parseMail(raw: Uint8Array | string): Promise<ParsedMail> {
  const { default: PostalMime } = await import("postal-mime");
  return await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer", maxNestingDepth: 50 });
}

/** Every address of the From header (groups flattened); empty when there is none. */
export async function fromAddresses(mail: ParsedMail): Promise<string[]> {
  const { addressParser } = await import("postal-mime");
  const header = mail.headers.filter((entry) => entry.key === "from");
  if (header.length !== 1) return header.length ? ["", ""] : [];
  return addressParser(header[0].value, { flatten: true })
    .map((entry) => entry.address ?? "").filter(Boolean);
}

/** The values of a header, topmost first. */
export function headerValues(mail: ParsedMail, key: string): string[] {
  return mail.headers.filter((entry) => entry.key === key).map((entry) => entry.value);
}

/**
 * What the mail says for the model: the owner's own words (quotes, the "On … wrote:" line after
 * them and the signature removed) and, after a "Forwarded message" line, the forwarded mail as
 * untrusted text in markers (someone else's words, never the owner's instructions).
 */
export function ownWords(mail: ParsedMail): string {
  const text = mail.text ??
    (mail.html
      ? htmlToText(mail.html.replace(/<blockquote[\s\S]*?<\/blockquote>/gi, "")).text
      : "");
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const forwardAt = lines.findIndex((line) =>
    /^-{3,}\s*Forwarded message\s*-{3,}$/i.test(line.trim()) ||
    /^Begin forwarded message:$/i.test(line.trim())
  );
  const own = unquoted(forwardAt < 0 ? lines : lines.slice(0, forwardAt));
  if (forwardAt < 0) return own;
  const forwarded = lines.slice(forwardAt + 1).join("\n").trim();
  return [own, wrapUntrusted(forwarded, { source: "forwarded mail" }), untrustedNotice]
    .filter(Boolean).join("\n\n");
}

/** The lines before a signature or a quoted earlier mail, quoted lines left out. */
function unquoted(lines: string[]): string {
  const kept: string[] = [];
  for (const line of lines) {
    const bare = line.trim();
    if (/^-- ?$/.test(line)) break;
    if (/^(-{2,}\s*Original Message\s*-{2,}|_{10,})$/i.test(bare)) break;
    if (/^On .{4,200} wrote:$/.test(bare) || /^Am .{4,200} schrieb .*:$/.test(bare)) break;
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}
