/** Where the dashboard may listen: loopback freely, anything else only with a token. */
import { ConfigError } from "../src/core/errors.ts";

/** Whether a bind address is this machine's loopback interface only. */
export function isLoopbackAddress(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Throws ConfigError unless the bind is loopback or a token is set. */
export function checkBindAddress(host: string, authToken: string): void {
  if (isLoopbackAddress(host) || authToken) return;
  throw new ConfigError(
    `Cannot serve the dashboard on ${host}: binding beyond 127.0.0.1 needs web.auth_token ` +
      `(or RADAR_WEB_AUTH_TOKEN) so only you can use it`,
  );
}
