/**
 * `radar approvals list|show|approve|deny`: the actions unattended runs left for your yes.
 * Approving runs exactly the stored call (the model is not asked again); `--always` also stores a
 * standing grant so matching calls need no yes from then on. Approve and deny are control
 * commands: a person at a terminal, never a script or Radar's own exec.
 */
import type { Command } from "commander";
import {
  approvalId,
  type ApprovalRecord,
  decidedWhere,
  describeApproval,
  describeGrant,
  outcomeLine,
  parseArguments,
  previewBaseLine,
  suggestedPrivateDataTo,
} from "../../away/mod.ts";
import { RadarError, UsageError } from "../../core/errors.ts";
import { jsonOptionHelp, printJson, printListing } from "../json_output.ts";
import { formatDateTime } from "../../core/zoned_time.ts";
import { namedAddresses } from "../../core/origins.ts";
import type { CliContext } from "../context.ts";

/** One approval in one line. */
function approvalLine(record: ApprovalRecord, timeZone?: string): string {
  const at = record.state === "pending" ? record.expiresAt : record.decidedAt;
  const shown = at ? formatDateTime(new Date(at), timeZone, { zone: true }) : "";
  const when = record.state === "pending" ? `expires ${shown}` : shown;
  return `#${record.id}  ${record.state.padEnd(7)}  ${record.kind.padEnd(9)} ${
    describeApproval(record).split("\n")[0].slice(0, 140)
  }  (${when})`;
}

/** Parses NAME=PATTERN arguments. */
export function parsePatterns(pairs: readonly string[]): Record<string, string> {
  const patterns: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new UsageError(`Expected NAME=PATTERN, not "${pair}"`);
    patterns[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return patterns;
}

/** Registers `approvals` and its subcommands. */
export function registerApprovals(program: Command, context: CliContext): void {
  const approvals = program.command("approvals")
    .description("actions unattended runs left for your yes (list, show, approve, deny)");

  approvals.command("list")
    .description("pending approvals (--all: also decided and expired ones)")
    .option("--all", "include approved, denied and expired ones")
    .option("--json", jsonOptionHelp)
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const radar = await context.radar();
      const records = radar.away.approvals.list({ pendingOnly: !options.all });
      const empty = options.all ? "No approvals yet." : "Nothing waits for your yes.";
      const zone = radar.config.radar.timezone || undefined;
      const line = (record: ApprovalRecord) => approvalLine(record, zone);
      await printListing(context, options.json, records, empty, line);
    });

  approvals.command("show").argument("<id>")
    .description("one approval: the exact call, why it needs a yes, what the run had read")
    .option("--json", jsonOptionHelp)
    .action(async (id: string, options: { json?: boolean }) => {
      const radar = await context.radar();
      const record = radar.away.approvals.show(approvalId(id));
      const suggested = await radar.away.approvals.suggest(record);
      const privateDataTo = suggestedPrivateDataTo(record);
      if (options.json) {
        return printJson(context, {
          ...record,
          suggestedGrant: { arguments: suggested, privateDataTo },
        });
      }
      const destinations = record.destinations ?? [];
      const lines = [
        approvalLine(record, radar.config.radar.timezone || undefined),
        `tool:       ${record.tool}`,
        // A summary (a browser submission's fields) shows passwords masked; --json has it all.
        record.summary
          ? `what:       ${record.summary.replaceAll("\n", "\n            ")}`
          : `arguments:  ${record.arguments}`,
        ...(record.preview
          ? [`change:     ${record.preview.trimEnd().replaceAll("\n", "\n            ")}`]
          : []),
        ...(record.previewBase ? [`against:    ${previewBaseLine(record.previewBase)}`] : []),
        ...(record.hasScreenshot
          ? [`screenshot: on the dashboard, /approvals/${record.id}/screenshot.png`]
          : []),
        `why:        ${record.reasons.join("\n            ")}`,
        `run:        ${record.kind}${
          record.conversationId === undefined ? "" : ` (conversation #${record.conversationId})`
        }`,
        `had read:   ${record.untrustedSources.join(", ") || "nothing from outside"}`,
        ...(record.privateSources?.length
          ? [`private:    ${record.privateSources.join(", ")}`]
          : []),
        ...(destinations === "anywhere" || destinations.length
          ? [
            `sends to:   ${
              destinations === "anywhere" ? anywhere(record) : destinations.join(", ")
            }`,
          ]
          : []),
        ...(record.decidedVia ? [`decided:    ${decidedWhere(record.decidedVia)}`] : []),
        ...(record.result ? [`result:     ${record.result}`] : []),
        ...(record.state === "pending" && (Object.keys(suggested).length || privateDataTo.length)
          ? [
            `always:     ${
              describeGrant({ tool: record.tool, arguments: suggested, privateDataTo })
            }`,
          ]
          : []),
      ];
      context.io.stdout(`${lines.join("\n")}\n`);
    });

  approvals.command("approve").argument("<id>")
    .description("run the stored action now (--always: and allow matching calls from now on)")
    .option("--always", "also store a standing grant (the suggested patterns, or --arg)")
    .option("--arg <name=pattern...>", "the grant's pattern for an argument (with --always)")
    .option("--note <text>", "a note on the grant")
    .action(async (id: string, options: { always?: boolean; arg?: string[]; note?: string }) => {
      const radar = await context.radar();
      const number = approvalId(id);
      if (options.arg && !options.always) throw new UsageError("--arg goes with --always");
      if (options.always) {
        const outcome = await radar.away.approvals.alwaysAllow(
          number,
          "cli",
          options.arg ? parsePatterns(options.arg) : undefined,
          options.note,
        );
        const grant = (await radar.away.grants.list()).find((item) => item.id === outcome.grantId)!;
        context.io.stdout(`Grant ${grant.id}: ${describeGrant(grant)}\n${outcomeLine(outcome)}\n`);
        if (outcome.state === "failed") context.setExitCode(1);
        return;
      }
      const outcome = await radar.away.approvals.approve(number, "cli");
      if (outcome.state === "not_pending" || outcome.state === "changed") {
        throw new RadarError(outcome.text);
      }
      context.io.stdout(`${outcomeLine(outcome)}\n`);
      if (outcome.state === "failed") context.setExitCode(1);
    });

  approvals.command("deny").argument("<id>").description("do not run it").action(
    async (id: string) => {
      const outcome = (await context.radar()).away.approvals.deny(approvalId(id), "cli");
      if (outcome.record.state !== "denied") throw new RadarError(outcome.text);
      context.io.stdout(`${outcome.text}\n`);
    },
  );
}

/** "anywhere", with the addresses a command names when it names some (for people only). */
function anywhere(record: ApprovalRecord): string {
  const command = parseArguments(record.arguments).command;
  const named = typeof command === "string" ? namedAddresses(command) : [];
  return named.length ? `anywhere (the command names ${named.join(", ")})` : "anywhere";
}
