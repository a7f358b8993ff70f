/** The daemon's services for CLI commands, imported on first use so start-up stays light. */
import type { CliContext } from "./context.ts";
import type { DaemonServices } from "../daemon/services.ts";

/** Opens the runtime and builds the daemon's services on it (src/daemon/ is loaded here). */
export async function loadDaemonServices(context: CliContext): Promise<DaemonServices> {
  const { daemonServices } = await import("../daemon/services.ts");
  return daemonServices(await context.runtime());
}
