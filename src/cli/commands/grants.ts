/**
 * `radar grants list|add|revoke`: standing grants (a tool and glob patterns for its arguments)
 * that answer yes to matching calls, also in unattended runs. radar.yaml's `grants:` rules are
 * listed too (edit them there). A grant never covers protected places or Radar's own state, and
 * never widens what the sandbox or a plugin may do. add and revoke are control commands.
 */
import type { Command } from "commander";
import { describeGrant } from "../../away/mod.ts";
import { jsonOptionHelp, printListing } from "../json_output.ts";
import type { CliContext } from "../context.ts";
import { parsePatterns } from "./approvals.ts";

/** Registers `grants` and its subcommands. */
export function registerGrants(program: Command, context: CliContext): void {
  const grants = program.command("grants")
    .description("standing grants: calls they match need no yes (list, add, revoke)");

  grants.command("list").description("every grant, radar.yaml's first").option(
    "--json",
    jsonOptionHelp,
  ).action(async (options: { json?: boolean }) => {
    const listed = await (await context.radar()).away.grants.list();
    await printListing(context, options.json, listed, "No standing grants.", (grant) => {
      const used = grant.uses
        ? `, used ${grant.uses}×, last ${grant.lastUsedAt?.slice(0, 16)}`
        : "";
      const from = grant.origin === "config"
        ? "radar.yaml"
        : `added ${grant.createdAt?.slice(0, 10)}`;
      const note = grant.note ? ` — ${grant.note}` : "";
      const ignored = grant.problems.map((problem) => `\n          ignored: ${problem}`);
      const limits = grant.limits.map((limit) => `\n          only: ${limit}`);
      return `${grant.id.padEnd(9)} ${describeGrant(grant)}  (${from}${used})${note}${
        ignored.join("")
      }${limits.join("")}`;
    });
  });

  grants.command("add")
    .description(
      'allow calls of a tool whose arguments match: grants add move_file "source=~/Downloads/*.pdf" "destination=~/Documents/Filed/**"',
    )
    .argument("<tool>")
    .argument("<name=pattern...>", "glob pattern per argument (paths with ~)")
    .option("--note <text>", "why (shown in the list)")
    .option(
      "--private-data-to <origin...>",
      "a run that read your private data may send it there (scheme, host and port)",
    )
    .action(
      async (
        tool: string,
        pairs: string[],
        options: { note?: string; privateDataTo?: string[] },
      ) => {
        const grant = await (await context.radar()).away.grants.add({
          tool,
          arguments: parsePatterns(pairs),
          note: options.note ?? "",
          privateDataTo: options.privateDataTo ?? [],
        });
        context.io.stdout(`Added grant ${grant.id}: ${describeGrant(grant)}\n`);
      },
    );

  grants.command("revoke").argument("<id>").description("delete a grant").action(
    async (id: string) => {
      (await context.radar()).away.grants.revoke(id);
      context.io.stdout(`Revoked grant ${id}.\n`);
    },
  );
}
