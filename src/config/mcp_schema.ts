/** `mcp:` MCP servers as tool sources (each runs only after `radar mcp approve`). */
import { z } from "zod";

/**
 * A server's name: the part of its tools' names (`mcp_<server>__<tool>`) before the first `__`,
 * so it never holds `__` nor starts or ends with `_` (two servers can never name a tool alike).
 */
export const mcpServerNamePattern = /^[a-z0-9](?:[a-z0-9]|_(?=[a-z0-9])){0,23}$/;

/** The rule, as a config error or `radar mcp add` says it. */
export const mcpServerNameRule =
  "expected a short name (a-z, 0-9, single _ between them, at most 24 characters)";

/** One MCP server: a stdio command (argv, no shell) or a streamable HTTP URL. */
const mcpServerEntry = z.object({
  name: z.string().regex(mcpServerNamePattern, mcpServerNameRule).describe(
    "a-z, 0-9, single _ between them, at most 24 characters: its tools are `mcp_<name>__<tool>`.",
  ),
  command: z.array(z.string()).default([]).describe(
    'The program and its arguments, run without a shell inside the exec sandbox, e.g. `["npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]`.',
  ),
  url: z.string().default("").describe(
    "Or a streamable HTTP endpoint (http/https), instead of a command.",
  ),
  folders: z.array(z.string()).default([]).describe(
    "Folders the server asks to read and write (granted at approval).",
  ),
  read_folders: z.array(z.string()).default([]).describe(
    "Folders under the home folder it asks to read only (e.g. a package cache).",
  ),
  network: z.boolean().default(false).describe(
    "The server asks for network access (granted at approval).",
  ),
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]).describe(
    "Names of environment variables it asks for (granted at approval).",
  ),
  public_results: z.boolean().default(false).describe(
    "Its results are public data (the web's), not yours: a run that reads them is not private. " +
      "Default: private, like files and mail.",
  ),
}).refine((entry) => (entry.command.length > 0) !== (entry.url !== ""), {
  message: "set either command or url",
});

/** `mcp:` servers and their limits. */
export const mcpSection = z.object({
  servers: z.array(mcpServerEntry).default([]).describe(
    "Servers; each runs only after `radar mcp approve NAME` (or `radar mcp add`).",
  ),
  timeout_seconds: z.number().positive().default(30).describe(
    "Seconds for starting a server and for each call; a late server is killed.",
  ),
  idle_seconds: z.number().positive().default(300).describe(
    "A stdio server idle this long is stopped (and started again on the next call).",
  ),
  max_result_chars: z.number().int().positive().default(20000).describe(
    "A tool result is cut to this many characters.",
  ),
  max_message_bytes: z.number().int().positive().default(4_000_000).describe(
    "A server's message larger than this (bytes) kills it.",
  ),
  max_schema_chars: z.number().int().positive().default(2000).describe(
    "A tool's JSON Schema larger than this (characters) is offered as a free-form object.",
  ),
}).describe("MCP servers as tool sources.");
