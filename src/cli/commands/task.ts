/** `radar task add|list|remove|run-now|enable|disable|approve`: scheduled tasks in local time. */
import { everyProblem } from "../../core/bounds.ts";
import type { Command } from "commander";
import { describeTask } from "./task_description.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parseId } from "../arguments.ts";
import { NotFoundError, RadarError, UsageError } from "../../core/errors.ts";
import { catchUpPolicies, type CatchUpPolicy } from "../../core/schedule.ts";
import type { TaskRecord } from "../../core/schedule_ports.ts";
import { describeNewSchedule } from "../../core/schedule_words.ts";
import { effectiveTimeZone } from "../../core/zoned_time.ts";
import { whenExamples } from "../../tools/schedule_when.ts";
import { readTaskSchedule } from "../../runtime/task_schedule_words.ts";
import { registerTaskLog } from "./task_log.ts";
import { registerRowCommands } from "./monitor.ts";

/** Registers `task` and its subcommands. */
export function registerTask(program: Command, context: CliContext): void {
  const task = program.command("task").description("scheduled tasks (cron in local time)");
  const zone = async () => (await context.radar()).config.radar.timezone || undefined;
  const describe = async (record: TaskRecord) => describeTask(record, await zone());

  task.command("add")
    .description('add a task: radar task add "every Monday at 9am" "Summarize my week"')
    .argument(
      "<words...>",
      'schedule ("0 9 * * 1", "every Monday at 9am", "tomorrow at 8") and message, ' +
        "or only the message with --every/--at",
    )
    .option("--every <duration>", "repeat every 30m, 2h, 1d …")
    .option("--at <time>", 'run once at "2026-12-01 09:00" (local time)')
    .option("--name <name>", "a short name")
    .option("--catch-up <policy>", "after downtime: once_within_24h or skip", "once_within_24h")
    .option("--personality <name>", "the personality its runs use (default: the active one)")
    .action(
      async (
        words: string[],
        options: {
          every?: string;
          at?: string;
          name?: string;
          catchUp: string;
          personality?: string;
        },
      ) => {
        if (!catchUpPolicies.includes(options.catchUp as CatchUpPolicy)) {
          throw new UsageError(
            `Cannot add task: --catch-up must be ${catchUpPolicies.join(" or ")}`,
          );
        }
        const everyProblemText = options.every === undefined
          ? undefined
          : everyProblem(options.every, "--every");
        if (everyProblemText) throw new UsageError(`Cannot add task: ${everyProblemText}`);
        const atYear = Number(options.at?.trim().match(/^(\d{4})-/)?.[1]);
        if (atYear > new Date().getFullYear() + 10) {
          throw new UsageError(
            `Cannot add task: --at must be within ten years, not "${options.at}"`,
          );
        }
        const interval = options.every !== undefined || options.at !== undefined;
        if (!interval && words.length < 2) {
          throw new UsageError(
            `Cannot add task: give a schedule and a message, e.g. "every Monday at 9am" ` +
              `"Summarize my week" (a schedule is a cron expression or words such as ${whenExamples})`,
          );
        }
        const radar = await context.radar();
        const timeZone = effectiveTimeZone(radar.config.radar.timezone);
        const schedule = interval
          ? { fields: { every: options.every, at: options.at }, phrase: undefined }
          : await readTaskSchedule(words[0], radar.clock.now(), timeZone);
        if ("error" in schedule) throw new UsageError(`Cannot add task: ${schedule.error}`);
        const added = await radar.tasks.add({
          ...schedule.fields,
          message: (interval ? words : words.slice(1)).join(" "),
          name: options.name,
          catchUp: options.catchUp as CatchUpPolicy,
          personality: options.personality,
        });
        if ("error" in added) throw new UsageError(`Cannot add task: ${added.error}`);
        context.io.stdout(
          `Added #${added.id} ${added.name} — ${
            describeNewSchedule(added, timeZone, schedule.phrase)
          }\n`,
        );
      },
    );

  task.command("list").description("list tasks with their next run").option(
    "--json",
    jsonOptionHelp,
  ).action(async (options: { json?: boolean }) => {
    const daemon = await context.radar();
    const tasks = daemon.tasks.list()
      .map((item) => ({ ...item, needsApproval: daemon.tasks.needsApproval(item.id) }));
    await printListing(context, options.json, tasks, "No tasks yet.", async (item) => {
      const approval = item.needsApproval
        ? ` — needs approval: created by the model, runs with read-only tools until ` +
          `radar task approve ${item.id}`
        : "";
      return `${await describe(item)}${approval}`;
    });
  });

  registerTaskLog(task, context);

  task.command("approve").argument("<id>")
    .description("let a task the model created run with every tool (not only read-only ones)")
    .action(async (id: string) => {
      const daemon = await context.radar();
      const record = daemon.tasks.store.get(parseId(id));
      if (!record) throw new NotFoundError(`Cannot approve task ${id}: no such task`);
      if (!daemon.tasks.needsApproval(record.id)) {
        context.io.stdout(`Task #${record.id} needs no approval.\n`);
        return;
      }
      daemon.tasks.approve(record.id);
      context.io.stdout(`Approved task #${record.id}: ${record.message}\n`);
    });

  registerRowCommands(task, context, "task", async () => (await context.radar()).tasks, describe);

  task.command("run-now").argument("<id>").description("run a task now").action(
    async (id: string) => {
      const daemon = await context.radar();
      const record = daemon.tasks.store.get(parseId(id));
      if (!record) throw new NotFoundError(`Cannot run task ${id}: no such task`);
      const report = await daemon.taskRunner.runTask(record, "manual");
      if (report.outcome === "busy") {
        throw new RadarError(`Cannot run task ${id}: ${report.reason}`);
      }
      if (report.outcome === "failed") {
        context.io.stdout(`Failed: ${report.reason}\n`);
        context.setExitCode(1);
        return;
      }
      context.io.stdout(`${report.result?.answer.trim() || "(no answer)"}\n`);
    },
  );
}
