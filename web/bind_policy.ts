/** Where the dashboard may listen: loopback freely, anything else only with a token. */
import { isLoopbackHost } from "../src/adapters/network/address_policy.ts";
import { ConfigError } from "../src/core/errors.ts";

/** Throws ConfigError unless the bind is loopback or a token is set. */
export function checkBindAddress(host: string, authToken: string): void {
  if (isLoopbackHost(host) || authToken) return;
  throw new ConfigError(
    `Cannot serve the dashboard on ${host}: binding beyond 127.0.0.1 needs web.auth_token ` +
      `(or RADAR_WEB_AUTH_TOKEN) so only you can use it`,
  );
}
