/**
 * Is a mail from the owner? Only the receiving server can tell: its `Authentication-Results`
 * header (RFC 8601) says whether DKIM or SPF passed and for which domain or address. A sender can
 * write any header into a message, so only the topmost one counts (the receiving server adds its
 * header above everything the message brought), or, when the server's authserv-id is configured,
 * the first header naming it. The mail counts as the owner's when its one From address is allowed
 * and DKIM passed for that address's domain (header.d or header.i) or SPF passed for that address
 * (smtp.mailfrom). Pure; the header text is hostile.
 */

/** One method's result in an Authentication-Results header. */
export interface AuthenticationResult {
  method: string;
  result: string;
  /** Properties such as `header.d`, `header.i`, `smtp.mailfrom`, lower-cased names. */
  properties: Record<string, string>;
}

/** One parsed Authentication-Results header. */
export interface AuthenticationResults {
  authservId: string;
  results: AuthenticationResult[];
}

/** Parses one header value; undefined when it is not one. */
export function parseAuthenticationResults(value: string): AuthenticationResults | undefined {
  const text = withoutComments(value.replace(/\r?\n[ \t]+/g, " ")).trim();
  const [head, ...rest] = splitOutsideQuotes(text, ";").map((part) => part.trim());
  const authservId = head?.split(/\s+/)[0]?.toLowerCase();
  if (!authservId) return undefined;
  const results: AuthenticationResult[] = [];
  for (const part of rest) {
    const tokens = part.split(/\s+/).filter(Boolean);
    const first = /^([a-z0-9_-]+)(?:\/\d+)?=([a-z]+)$/i.exec(tokens[0] ?? "");
    if (!first) continue;
    const properties: Record<string, string> = {};
    for (const token of tokens.slice(1)) {
      const property = /^([a-z0-9_-]+\.[a-z0-9_.-]+)=(.+)$/i.exec(token);
      if (property) properties[property[1].toLowerCase()] = unquote(property[2]);
    }
    results.push({ method: first[1].toLowerCase(), result: first[2].toLowerCase(), properties });
  }
  return { authservId, results };
}

/** What the owner check looks at. */
export interface MailAuthenticationInput {
  /** Every Authentication-Results header, topmost first. */
  authenticationResults: readonly string[];
  /** The From header's addresses (exactly one is required). */
  from: readonly string[];
  /** The owner's addresses (`allowed_senders`). */
  allowed: readonly string[];
  /** The receiving server's authserv-id; empty: the topmost header counts. */
  authservId?: string;
}

/** The verdict: the owner's address and how it was proven, or why not. */
export type MailAuthentication =
  | { owner: true; address: string; by: "dkim" | "spf" }
  | { owner: false; reason: string };

/** Decides whether a mail is the owner's (see the module comment). */
export function mailAuthentication(input: MailAuthenticationInput): MailAuthentication {
  if (input.from.length !== 1) {
    return { owner: false, reason: `From names ${input.from.length} addresses, not one` };
  }
  const address = input.from[0].trim().toLowerCase();
  if (!input.allowed.some((allowed) => allowed.trim().toLowerCase() === address)) {
    return { owner: false, reason: `${address} is not an allowed sender` };
  }
  const wanted = input.authservId?.trim().toLowerCase();
  const headers = input.authenticationResults.map(parseAuthenticationResults);
  const header = wanted ? headers.find((parsed) => parsed?.authservId === wanted) : headers[0];
  if (!header) {
    return {
      owner: false,
      reason: wanted
        ? `no Authentication-Results header from ${wanted}`
        : "no Authentication-Results header",
    };
  }
  const domain = address.slice(address.lastIndexOf("@") + 1);
  for (const result of header.results) {
    if (result.result !== "pass") continue;
    if (result.method === "dkim" && dkimCovers(result.properties, address, domain)) {
      return { owner: true, address, by: "dkim" };
    }
    if (result.method === "spf" && spfCovers(result.properties, address, domain)) {
      return { owner: true, address, by: "spf" };
    }
  }
  return {
    owner: false,
    reason: `${header.authservId} shows no DKIM or SPF pass for ${address}`,
  };
}

function dkimCovers(properties: Record<string, string>, address: string, domain: string) {
  const signer = properties["header.d"]?.toLowerCase();
  const identity = properties["header.i"]?.toLowerCase();
  return signer === domain || identity === address || identity === `@${domain}`;
}

function spfCovers(properties: Record<string, string>, address: string, domain: string) {
  const from = properties["smtp.mailfrom"]?.toLowerCase();
  return from === address || from === domain;
}

/** The text without RFC 5322 comments (nested parentheses; quoted strings kept). */
function withoutComments(text: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "\\" && (quoted || depth > 0)) {
      if (depth === 0) out += char + (text[index + 1] ?? "");
      index++;
      continue;
    }
    if (depth === 0 && char === '"') quoted = !quoted;
    if (!quoted && char === "(") {
      depth++;
      continue;
    }
    if (!quoted && char === ")" && depth > 0) {
      depth--;
      out += " ";
      continue;
    }
    if (depth === 0) out += char;
  }
  return out;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"') && value.length >= 2
    ? value.slice(1, -1).replace(/\\(.)/g, "$1")
    : value;
}
