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
  /** Offer the `browser` tool when a browser is found (radar status says which). */
  enabled: z.boolean().default(true),
  /** The browser program; empty: found automatically (Chrome, Chromium, Edge, Brave). */
  executable: z.string().default(""),
  /**
   * A profile kept between sessions (cookies, logins): a name (a folder in the data folder) or an
   * absolute path. Empty: a fresh temporary profile for every session, deleted afterwards.
   */
  profile: z.string().default(""),
  /** The longest one browser call (open, click, …) may take. */
  call_seconds: z.number().positive().max(600).default(30),
  /** The longest a session may live (a run that opens a browser closes it when it ends). */
  session_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(600),
  /** A chat's session closes after this long without a browser call. */
  idle_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(300),
  /** Page text returned per call (longer pages are cut). */
  max_chars: z.number().int().positive().max(bounds.maxConfigChars).default(6000),
  /** Allow private, loopback and link-local addresses (as tools.fetch_url.allow_private). */
  allow_private: z.boolean().default(false),
  /** Private hosts or ranges the browser may reach all the same (a router's page, a NAS). */
  allowed_hosts: z.array(hostEntry).max(100).default([]),
});
