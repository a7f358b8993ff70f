/** `radar monitor add|list|remove|check-now|enable|disable`: URL monitors. */
import { everyProblem } from "../../core/bounds.ts";
import type { Command } from "commander";
import { MonitorService } from "../../sources/monitors/monitor_service.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parseId } from "../arguments.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import type { MonitorRecord } from "../../core/schedule_ports.ts";

/** Registers `monitor` and its subcommands. */
export function registerMonitor(program: Command, context: CliContext): void {
  const monitor = program.command("monitor").description(
    "URL monitors: changed pages queue events",
  );
  const zone = async () => (await context.radar()).config.radar.timezone || undefined;
  const describe = async (record: MonitorRecord) => MonitorService.describe(record, await zone());

  monitor.command("add")
    .description("watch a page: radar monitor add https://example.com/prices --every 2h")
    .argument("<url>")
    .option("--every <duration>", "check every 30m, 2h, 1d …", "60m")
    .option("--selector <css>", "watch only the elements this CSS selector matches")
    .option("--name <name>", "a short name")
    .option("--urgent", "changes wake the heartbeat during quiet hours")
    .action(
      async (
        url: string,
        options: { every: string; selector?: string; name?: string; urgent?: boolean },
      ) => {
        const everyProblemText = everyProblem(options.every, "--every");
        if (everyProblemText) throw new UsageError(`Cannot add monitor: ${everyProblemText}`);
        const { monitors } = await context.radar();
        const added = await monitors.add({ url, ...options });
        if ("error" in added) throw new UsageError(`Cannot add monitor: ${added.error}`);
        context.io.stdout(
          `Added ${await describe(added)}\n` +
            "The first check stores the page; later changes become heartbeat events.\n",
        );
      },
    );

  monitor.command("list").description("list monitors with their next check").option(
    "--json",
    jsonOptionHelp,
  ).action(async (options: { json?: boolean }) => {
    const monitors = (await context.radar()).monitors.list();
    await printListing(context, options.json, monitors, "No monitors yet.", describe);
  });

  const monitors = async () => (await context.radar()).monitors;
  const resumeNote = " (checked on the next tick)";
  registerRowCommands(monitor, context, "monitor", monitors, describe, resumeNote);

  monitor.command("check-now").argument("<id>")
    .description("check a monitor now; a change is queued for the next heartbeat")
    .action(async (id: string) => {
      const daemon = await context.radar();
      const record = daemon.monitors.store.get(parseId(id));
      if (!record) throw new NotFoundError(`Cannot check monitor ${id}: no such monitor`);
      const check = await daemon.monitorChecker.check(record);
      const messages = {
        baseline: "First version stored; later changes become heartbeat events.",
        unchanged: "Unchanged.",
        not_modified: "Unchanged (304 Not Modified).",
        changed: "Changed; queued for the next heartbeat:",
        failed: `Failed: ${check.detail}`,
      };
      context.io.stdout(`${messages[check.outcome]}\n`);
      if (check.outcome === "changed") context.io.stdout(`${check.detail}\n`);
      if (check.outcome === "failed") context.setExitCode(1);
    });
}

/**
 * Registers `remove`, `enable` and `disable` under `parent` for numbered rows called `noun`
 * (monitors here, tasks too); `describe` gives a switched row's line, `resumeNote` ends enable's
 * description.
 */
export function registerRowCommands<Row>(
  parent: Command,
  context: CliContext,
  noun: string,
  rows: () => Promise<
    { remove(id: number): boolean; setEnabled(id: number, enabled: boolean): Row | undefined }
  >,
  describe: (row: Row) => Promise<string>,
  resumeNote = "",
): void {
  parent.command("remove").argument("<id>").description(`delete a ${noun}`).action(
    async (id: string) => {
      if (!(await rows()).remove(parseId(id))) {
        throw new NotFoundError(`Cannot remove ${noun} ${id}: no such ${noun}`);
      }
      context.io.stdout(`Removed ${noun} #${id}.\n`);
    },
  );
  for (const enabled of [true, false]) {
    parent.command(enabled ? "enable" : "disable").argument("<id>")
      .description(enabled ? `resume a ${noun}${resumeNote}` : `pause a ${noun}`)
      .action(async (id: string) => {
        const updated = (await rows()).setEnabled(parseId(id), enabled);
        if (!updated) throw new NotFoundError(`Cannot change ${noun} ${id}: no such ${noun}`);
        context.io.stdout(`${await describe(updated)}\n`);
      });
  }
}
