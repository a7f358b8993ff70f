/** `browser:` the web browser the model can drive (Chromium, Chrome, Edge or Brave you have). */
import { z } from "zod";
import * as bounds from "../core/bounds.ts";

/** A host name, an IP address or a CIDR range (`192.168.1.0/24`), without scheme or port. */
const hostEntry = z.string().trim().min(1).max(253).regex(
  /^[A-Za-z0-9.:_\-[\]/]+$/,
  "expected a host name, an IP address or a CIDR range such as 192.168.1.0/24",
);

/** `browser:` settings. */
export const browserSection = z.object({
  enabled: z.boolean().default(true).describe(
    "Offer the `browser` tool when a browser is found (`radar status` says which, or why none).",
  ),
  executable: z.string().default("").describe(
    "The browser program; empty: found automatically (Chrome, Chromium, Edge, Brave).",
  ),
  profile: z.string().default("").describe(
    "A profile kept between sessions (cookies, logins): a name (a folder in the data folder) or an absolute path. Empty: a fresh temporary profile for every session, deleted afterwards.",
  ),
  call_seconds: z.number().positive().max(600).default(30).describe(
    "The longest one browser call (open, click, …) may take.",
  ),
  session_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(600).describe(
    "The longest a session may live (a run that opens a browser closes it when it ends).",
  ),
  idle_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(300).describe(
    "A chat's session closes after this long without a browser call.",
  ),
  max_chars: z.number().int().positive().max(bounds.maxConfigChars).default(6000).describe(
    "Page text returned per call (longer pages are cut).",
  ),
  allow_private: z.boolean().default(false).describe(
    "Allow private, loopback and link-local addresses (as `tools.fetch_url.allow_private`).",
  ),
  allowed_hosts: z.array(hostEntry).max(100).default([]).describe(
    'Private hosts or ranges the browser may reach all the same (a router\'s page, a NAS), e.g. `["192.168.1.1", "nas.lan"]`.',
  ),
}).describe("The `browser` tool: a real Chromium, Chrome, Edge or Brave the model can drive.");
