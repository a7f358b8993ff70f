/**
 * `radar doctor [--json] [--notify]`: checks the setup as a person needs it, each line a verdict
 * with its fix; exit 0 when Radar can work, 1 (2: the config) naming what blocks it. The checks
 * load at first use (src/doctor/), outside `radar`'s start-up graph.
 */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { jsonOptionHelp, printJson } from "../json_output.ts";

/** Registers `doctor`. */
export function registerDoctor(program: Command, context: CliContext): void {
  program.command("doctor")
    .description(
      "check config, data, model server, model (a short judgment probe), context, sandbox, " +
        "browser, ntfy and chat channels; suggest settings (exit 1: something blocks Radar)",
    )
    .option("--json", jsonOptionHelp)
    .option("--notify", "also send a test notification through ntfy")
    .action(async (options: { json?: boolean; notify?: boolean }) => {
      const { runDoctor } = await import("../../doctor/run_doctor.ts");
      const { formatReport, reportRecord } = await import("../../doctor/doctor_report.ts");
      const { report, exitCode } = await runDoctor({
        loadConfig: () => context.config(),
        openRadar: () => context.radar({ reportConfigWarnings: false }),
        env: context.io.env,
        notify: options.notify,
      });
      if (options.json) printJson(context, reportRecord(report));
      else context.io.stdout(formatReport(report));
      context.setExitCode(exitCode);
    });
}
