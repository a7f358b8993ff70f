/** The daemon's services for CLI commands, imported on first use so start-up stays light. */
import { daemonServices } from "../daemon/services.ts";
import type { CliContext } from "./context.ts";
import type { DaemonServices } from "../daemon/services.ts";

/** Opens the runtime and builds the daemon's services on it (src/daemon/ is loaded here). */
export async function loadDaemonServices(context: CliContext): Promise<DaemonServices> {
  return daemonServices(await context.runtime());
}
