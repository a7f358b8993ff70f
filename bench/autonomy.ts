/**
 * The autonomy price of the run guard, measured: the benign flows README documents (filing PDFs
 * and comics, money import, reminders, monitors, mail triage), each with the standing grants the
 * docs tell the user to write, run unattended on a real Radar; the share of consequential actions
 * (a call that changes something or sends something elsewhere, as the flow defines it) that ran
 * without a tap. A safer rule must not lower it on this suite. The share the code had before the
 * information-flow rule (issue 31) is recorded below and printed beside today's.
 */
import type { BenchSuite } from "./index.ts";
import { withAwayHome } from "../tests/helpers/away_home.ts";
import {
  type ActionOutcome,
  type BenignFlow,
  comicFlow,
  noServers,
  pdfLayoutFlow,
  pdfMoveFlow,
} from "./autonomy_flows.ts";
import { mailFlow, moneyFlow, monitorFlow, remindersFlow } from "./autonomy_sources.ts";

/** The flows, in README's order. */
export const benignFlows: readonly BenignFlow[] = [
  pdfLayoutFlow,
  pdfMoveFlow,
  comicFlow,
  moneyFlow,
  remindersFlow,
  monitorFlow,
  mailFlow,
];

/**
 * The grants the docs tell the user to write for these flows, as radar.yaml `grants:` items: the
 * two docs/filing.md shows, the one "Always allow…" makes on the first move_file filing, and one
 * for marking mail read. Since issue 31 a grant also says where private data may go
 * (`private_data_to`): the comic grant names the lookup service, the mail grant the mail server
 * (docs/security.md); `privateData: false` leaves those out (the grants as written before).
 */
export function documentedGrants(values: Record<string, string>, privateData = true): string {
  const to = (origin: string | undefined) =>
    privateData && origin ? `, private_data_to: ["${origin}"]` : "";
  const comicVine = values.comicVine && new URL(values.comicVine).origin;
  const mail = values.port && `imap://127.0.0.1:${values.port}`;
  return `  - { tool: comic_info, arguments: { path: "~/Downloads/*.pdf" }, note: "file new PDFs" }
  - { tool: comic_info, arguments: { path: "~/Comics/Inbox/*.cbz" }${to(comicVine)} }
  - tool: move_file
    arguments: { source: "~/Downloads/*.pdf", destination: "~/Documents/Filed/**" }
    note: "from approval #1"
  - { tool: mark_email_read, arguments: { account: "home" }${to(mail)} }
`;
}

/** Runs one flow in its own home; a flow that fails is reported, never hidden. */
export async function runFlow(flow: BenignFlow, privateData = true): Promise<ActionOutcome[]> {
  const servers = await (flow.servers ?? noServers)();
  try {
    let found: ActionOutcome[] = [];
    await withAwayHome({
      folders: flow.folders,
      watchers: flow.watchers,
      yaml: flow.yaml({ servers, grants: documentedGrants(servers.values, privateData) }),
    }, async (home) => {
      found = await flow.run(home, servers);
    });
    return found;
  } finally {
    await servers.stop();
  }
}

/** The share before issue 31's rule (commit b0c808a, this suite unchanged): 8 of 9 actions. */
const before = { autonomous: 8, consequential: 9 };

function percent(part: number, whole: number): number {
  return whole ? Number((100 * part / whole).toFixed(1)) : 100;
}

/** Runs every flow; prints each flow's count and what was held. */
async function runSuite(privateData: boolean): Promise<ActionOutcome[]> {
  const all: ActionOutcome[] = [];
  for (const flow of benignFlows) {
    const found = await runFlow(flow, privateData);
    const done = found.filter((action) => action.autonomous).length;
    console.log(`    ${flow.name}: ${done} of ${found.length} consequential actions without a tap`);
    for (const action of found.filter((item) => !item.autonomous)) {
      console.log(`      held: ${action.what}: ${action.why}`);
    }
    all.push(...found);
  }
  return all;
}

/** The autonomy suite. */
export const autonomySuite: BenchSuite = {
  name: "autonomy share",
  async run() {
    console.log("  with the documented grants:");
    const all = await runSuite(true);
    console.log("  with the grants as written before issue 31 (no private_data_to):");
    const older = await runSuite(false);
    const done = all.filter((action) => action.autonomous).length;
    const olderDone = older.filter((action) => action.autonomous).length;
    const share = percent(done, all.length);
    const beforeShare = percent(before.autonomous, before.consequential);
    return [
      {
        metric: `before issue 31's rule (${before.autonomous} of ${before.consequential})`,
        value: beforeShare,
        unit: "%",
      },
      {
        metric: `consequential actions without a tap now (${done} of ${all.length})`,
        value: share,
        unit: "%",
        target: `>= ${beforeShare} %`,
        met: share >= beforeShare,
      },
      {
        metric:
          `now, with grants that do not say where private data may go (${olderDone} of ${older.length})`,
        value: percent(olderDone, older.length),
        unit: "%",
      },
    ];
  },
};
