/**
 * Destinations as origins: scheme, host and port, compared exactly, never as substrings
 * (`tonline.com` is not `login.microsoftonline.com`, port 8080 is not port 9090). A tool that
 * sends data off the machine says where each call goes as origins (`https://api.example`,
 * `imaps://mail.example:993`), or as the boundary the user approved for it (`mcp:files`, an MCP
 * server; `plugin:weather`, a plugin's sandbox), or `anywhere` when it cannot tell (a command
 * with network access can reach any address a script computes). Pure.
 */

export type { Destinations } from "./tool.ts";

/** Ports a scheme has when a URL names none (written out for schemes URL leaves alone). */
const defaultPorts: Record<string, string> = {
  "http:": "80",
  "https:": "443",
  "ws:": "80",
  "wss:": "443",
  "ftp:": "21",
  "imap:": "143",
  "imaps:": "993",
  "smtp:": "25",
  "smtps:": "465",
};

/**
 * The origin of a URL as one exact string: lower-case scheme and host (IDNA as URL parses it),
 * the port only when it is not the scheme's default. Undefined for text that is not an absolute
 * URL with a host.
 */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase();
  if (!host) return undefined;
  const port = parsed.port && parsed.port !== defaultPorts[parsed.protocol]
    ? `:${parsed.port}`
    : "";
  return `${parsed.protocol}//${host}${port}`;
}

/** An origin as written in a grant or config (`https://a.example/`, `HTTPS://A.example:443`). */
export function normalizeOrigin(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^(mcp|plugin):[a-z0-9_.-]+$/i.test(trimmed)) return trimmed.toLowerCase();
  const origin = originOf(trimmed);
  if (!origin) return undefined;
  // An origin has no path, query or fragment: `https://a.example/x` is not one.
  const rest = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  return rest === "" || rest === "/" ? origin : undefined;
}

/** The origins of `urls` (text that is not a URL is left out). */
export function originsOf(urls: readonly string[]): string[] {
  return [...new Set(urls.map(originOf).filter((origin): origin is string => !!origin))];
}

/** The origins among `destinations` that `allowed` does not hold, exactly. */
export function uncovered(destinations: readonly string[], allowed: readonly string[]): string[] {
  const known = new Set(allowed.map((origin) => normalizeOrigin(origin) ?? origin));
  return destinations.filter((destination) => !known.has(destination));
}

/** The origins of the absolute URLs a text holds (`see https://a.example/x` → `https://a.example`). */
export function originsNamedIn(text: string): string[] {
  const urls = [...text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>()[\]{}|]+/gi)];
  return originsOf(urls.map((match) => match[0].replace(/[.,:;!?]+$/, "")));
}

/**
 * Addresses a command line names, for people to read (a scheme-less `curl host:port/path`
 * included). Never a boundary: a command with network access can reach what it computes, so its
 * destinations are `anywhere` whatever this finds.
 */
export function namedAddresses(command: string): string[] {
  const found = new Set<string>();
  for (const match of command.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>|;&()]+/gi)) {
    const origin = originOf(match[0]);
    if (origin) found.add(origin);
  }
  // A host with a port or a path after it (`curl evil.example:8080/x`); file names such as
  // notes.txt are not taken for hosts.
  const bare =
    /(?:^|[\s"'=@])((?:[a-z0-9-]+\.)+[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}|localhost)(:\d{1,5}(?=[/\s"']|$)|(?=\/))/gi;
  for (const match of command.matchAll(bare)) {
    found.add(`${match[1].toLowerCase()}${match[2] ?? ""}`);
  }
  return [...found];
}
