/**
 * The benign flows README documents, as the autonomy suite runs them: each in a fresh real Radar
 * (tests/helpers/away_home.ts: the model a fake LLM server over HTTP, real files, a watched
 * ~/Downloads, real SQLite, a capture server for ntfy), with the standing grants the docs tell the
 * user to write, and a stand-in model that does what the bundled skills say. Each scripted call
 * that changes something or sends something elsewhere is a consequential action; the suite counts
 * those that ran without anyone's yes. Which calls are consequential is fixed here, by the flow,
 * never by the code under measurement.
 */
import { ollamaText, ollamaToolCall } from "../tests/fakes/fake_llm_server.ts";
import type { AwayHome } from "../tests/helpers/away_home.ts";
import { buildCbz, pages } from "../tests/helpers/comic_factory.ts";
import type { ToolExecution } from "../src/core/tool_registry.ts";

/** One scripted model call; `consequential` names what it does when it changes or sends. */
export interface ScriptedCall {
  tool: string;
  args: Record<string, unknown>;
  consequential?: string;
}

/** One consequential action and whether it ran without a tap. */
export interface ActionOutcome {
  flow: string;
  what: string;
  autonomous: boolean;
  /** Why it did not run on its own (the approval's reason or the refusal), when it did not. */
  why?: string;
}

/** A documented flow. */
export interface BenignFlow {
  name: string;
  /** radar.yaml besides the away home's (watchers as `watchers`, the rest as `yaml`). */
  watchers?: string;
  yaml: (parts: FlowParts) => string;
  folders?: string[];
  /** Servers the flow needs, started before the home and stopped after it. */
  servers?: () => Promise<FlowServers>;
  run(home: AwayHome, servers: FlowServers): Promise<ActionOutcome[]>;
}

/** What a flow's servers offer its yaml and its run. */
export interface FlowServers {
  values: Record<string, string>;
  stop(): Promise<void>;
}

/** What a flow's yaml is written from. */
export interface FlowParts {
  servers: FlowServers;
  /** The grants the documentation tells the user to write, as YAML list items. */
  grants: string;
}

/** Queues the script (and a closing answer) for the next run. */
export function script(home: AwayHome, calls: readonly ScriptedCall[], answer = "Done."): void {
  home.llm.reply(
    ...calls.map((call) => ollamaToolCall(call.tool, call.args)),
    ollamaText(answer),
  );
}

/** Pairs a run's executions with the script: the consequential ones, each ran or held. */
export function outcomes(
  flow: string,
  calls: readonly ScriptedCall[],
  executions: readonly ToolExecution[],
): ActionOutcome[] {
  if (executions.length !== calls.length) {
    throw new Error(
      `${flow}: the run made ${executions.length} calls, the script ${calls.length}: ` +
        executions.map((execution) => `${execution.name}: ${execution.result.text}`).join(" | "),
    );
  }
  const found: ActionOutcome[] = [];
  calls.forEach((call, index) => {
    if (!call.consequential) return;
    const { result } = executions[index];
    const held = result.approvalId !== undefined || result.outcome === "refused";
    found.push({
      flow,
      what: call.consequential,
      autonomous: !held,
      why: held ? result.text.slice(0, 300) : undefined,
    });
  });
  return found;
}

/** Runs one heartbeat over the queued events with `calls` as the model's answers. */
export async function heartbeatWith(
  home: AwayHome,
  flow: string,
  calls: readonly ScriptedCall[],
): Promise<ActionOutcome[]> {
  script(home, calls);
  const report = await home.radar.heartbeat.tick({ trigger: "schedule" });
  if (report.outcome !== "ran") throw new Error(`${flow}: heartbeat ${report.outcome}`);
  return outcomes(flow, calls, report.result!.toolExecutions);
}

const pdfText = (day: string) => `ACME GmbH Invoice 2026-11-${day} Total 120.00 EUR`;

/** The pdf-filing skill with a layout: read, then tag and file in one change. */
function filePdf(name: string, day: string): ScriptedCall[] {
  const path = `~/Downloads/${name}`;
  return [
    { tool: "pdf_extract", args: { path, first: 2 } },
    {
      tool: "comic_info",
      args: {
        path,
        set: {
          title: `ACME invoice 2026-11-${day}`,
          author: "ACME",
          subject: "invoice",
          kind: "invoice",
          date: `2026-11-${day}`,
          sender: "ACME",
        },
        file: true,
      },
      consequential: "tags and files a PDF",
    },
  ];
}

/** For a flow that needs no server. */
export const noServers = (): Promise<FlowServers> =>
  Promise.resolve({ values: {}, stop: () => Promise.resolve() });

/** Filing PDFs with the library layout and the grant README shows (`comic_info path=…`). */
export const pdfLayoutFlow: BenignFlow = {
  name: "filing PDFs (layout)",
  yaml: ({ grants }) =>
    `library:\n  documents: "~/Documents/{kind}/{date} {sender} {kind}.pdf"\ngrants:\n${grants}`,
  run: async (home) => {
    await home.dropPdf("scan_0042.pdf", pdfText("02"));
    await home.dropPdf("scan_0043.pdf", pdfText("03"));
    return await heartbeatWith(home, "filing PDFs (layout)", [
      ...filePdf("scan_0042.pdf", "02"),
      ...filePdf("scan_0043.pdf", "03"),
    ]);
  },
};

/** Filing a PDF with move_file under the grant "Always allow…" made on the first filing. */
export const pdfMoveFlow: BenignFlow = {
  name: "filing PDFs (move_file)",
  yaml: ({ grants }) => `grants:\n${grants}`,
  run: async (home) => {
    await home.dropPdf("scan_0050.pdf", pdfText("05"));
    return await heartbeatWith(home, "filing PDFs (move_file)", [
      { tool: "pdf_extract", args: { path: "~/Downloads/scan_0050.pdf", first: 2 } },
      {
        tool: "move_file",
        args: {
          source: "~/Downloads/scan_0050.pdf",
          destination: "~/Documents/Filed/invoice/2026-11-05 ACME invoice.pdf",
        },
        consequential: "moves a PDF into the filed folder",
      },
    ]);
  },
};

/** Filing comics with ComicVine lookups and the grant README shows. */
export const comicFlow: BenignFlow = {
  name: "filing comics (ComicVine)",
  folders: ["Comics/Inbox"],
  watchers: `  - path: "~/Comics/Inbox"\n    pattern: "*.cb?"\n    action: "new_comic_detected"\n`,
  servers: async () => {
    const { startFakeMetadataServer } = await import("../tests/fakes/fake_metadata_server.ts");
    const fake = startFakeMetadataServer("cv-bench-key");
    return { values: { comicVine: fake.comicVineBase }, stop: () => fake.close() };
  },
  yaml: ({ servers, grants }) =>
    `library:\n  comics: "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz"\n` +
    `  comicvine: { api_key: "cv-bench-key", base_url: "${servers.values.comicVine}" }\n` +
    `grants:\n${grants}`,
  run: async (home) => {
    const name = "Saga 054 (2018) (digital).cbz";
    await home.drop(`Comics/Inbox/${name}`, await buildCbz(pages(2)));
    const path = `~/Comics/Inbox/${name}`;
    return await heartbeatWith(home, "filing comics (ComicVine)", [
      { tool: "comic_info", args: { path }, consequential: "looks a comic up at ComicVine" },
      {
        tool: "comic_info",
        args: { path, set: { Series: "Saga", Number: "54", Year: 2018 }, file: true },
        consequential: "tags and files a comic",
      },
    ]);
  },
};
