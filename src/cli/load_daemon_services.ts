/** The daemon's services for CLI commands, imported on first use so start-up stays light. */
import { importLazily } from "../runtime/lazy_import.ts";
import type { CliContext } from "./context.ts";
import type { DaemonServices } from "../daemon/services.ts";

/** Opens the runtime and builds the daemon's services on it (src/daemon/ is loaded here). */
export async function loadDaemonServices(context: CliContext): Promise<DaemonServices> {
  const { daemonServices } = await importLazily<typeof import("../daemon/services.ts")>(
    new URL("../daemon/services.ts", import.meta.url),
  );
  return daemonServices(await context.runtime());
}
