/**
 * The dashboard's per-install secret. `web.auth_token` / RADAR_WEB_AUTH_TOKEN when set; else a
 * random token created on first use in Radar's data folder (`dashboard_token`, owner-only), which
 * the exec sandbox hides and plugin grants cannot reach. The browser never sees it: it logs in
 * with a one-time code (login_codes.ts); scripts send it as `Authorization: Bearer`.
 */
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { RadarError } from "../src/core/errors.ts";

/** Where the generated token lives. */
export function dashboardTokenPath(dataDir: string): string {
  return join(dataDir, "dashboard_token");
}

/** A new random token: 32 bytes, base64url. */
export function newSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

function readToken(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    // Another user could have read a group/world-readable token: never trust it.
    if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o077) !== 0) {
      Deno.removeSync(path);
      return undefined;
    }
    const token = Deno.readTextFileSync(path).trim();
    return token.length >= 32 ? token : undefined;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new RadarError(`Cannot read the dashboard token ${path}: ${(error as Error).message}`);
  }
}

/**
 * The dashboard token: the configured one, else the stored one, else a new one written
 * owner-only (0600) with create-new semantics, so two processes starting at once agree.
 */
export function dashboardToken(dataDir: string, configured: string): string {
  if (configured) return configured;
  const path = dashboardTokenPath(dataDir);
  const existing = readToken(path);
  if (existing) return existing;
  const token = newSecret();
  try {
    Deno.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(path, `${token}\n`, { mode: 0o600, createNew: true });
    return token;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      const raced = readToken(path);
      if (raced) return raced;
    }
    throw new RadarError(
      `Cannot create the dashboard token ${path}: ${(error as Error).message}`,
    );
  }
}
