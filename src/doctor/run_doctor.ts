/**
 * `radar doctor`: the setup checked as a person needs it, in order: config, data folder and
 * database, model server, model, tool calling, a judgment probe of the model, the context the
 * server loaded, then exec's sandbox, the browser, ntfy and the chat channels (each: its secrets,
 * its service, its owners, the daemon's record); settings suggested from what was measured. Exit 0
 * when Radar can work; 1 (2 for the config) naming what blocks it.
 */
import type { LoadedConfig } from "../config/loader.ts";
import { asModelMessage, markerIdOf } from "../core/agent_messages.ts";
import { estimateFirstRequestTokens } from "../core/agent_loop.ts";
import type { ModelStatus } from "../core/chat_model.ts";
import { ExitCode } from "../core/errors.ts";
import { toolSpec, toolTokenCost } from "../core/tool_registry.ts";
import { sleep } from "../adapters/clock.ts";
import type { Radar } from "../runtime/open_radar.ts";
import { blockers, type DoctorReport, probeVerdicts } from "./doctor_report.ts";
import { browserVerdict, execVerdict, ntfyVerdict } from "./host_checks.ts";
import { channelVerdicts } from "./channel_checks.ts";
import { type ProbeReport, runProbe } from "./model_probe.ts";
import { type ContextFinding, contextVerdicts, statusVerdicts } from "./server_checks.ts";
import { configVerdicts, databaseVerdict, dataFolderVerdict, openFailure } from "./setup_checks.ts";
import { suggestSettings } from "./suggestions.ts";
import type { Verdict } from "./verdict.ts";

/** What the doctor runs with. */
export interface DoctorOptions {
  loadConfig: () => Promise<LoadedConfig>;
  openRadar: () => Promise<Radar>;
  env: Record<string, string | undefined>;
  /** Send a test notification through ntfy. */
  notify?: boolean;
  fetch?: typeof fetch;
  /** The probe's whole time (default 90 s) and one case's (default 60 s). */
  probeBudgetMs?: number;
  caseTimeoutMs?: number;
  /** Told of each verdict as it is found (the text output streams). */
  onVerdict?: (verdict: Verdict) => void;
}

/** Runs every check; returns the report and the exit code. */
export async function runDoctor(
  options: DoctorOptions,
): Promise<{ report: DoctorReport; exitCode: number }> {
  const started = performance.now();
  const verdicts: Verdict[] = [];
  const add = (...found: Verdict[]) => {
    verdicts.push(...found);
    for (const item of found) options.onVerdict?.(item);
  };
  const report: DoctorReport = { verdicts, suggestions: [], canWork: false, durationMs: 0 };
  const done = (exitCode?: number) => {
    report.durationMs = performance.now() - started;
    report.canWork = !blockers(verdicts).length;
    return { report, exitCode: exitCode ?? (report.canWork ? ExitCode.ok : ExitCode.failure) };
  };
  const config = await configVerdicts(options.loadConfig);
  add(...config.verdicts);
  const loaded = config.loaded;
  if (!loaded) return done(ExitCode.usage);
  report.model = loaded.config.llm.model;
  report.server = loaded.config.llm.base_url;
  report.provider = loaded.config.llm.provider;
  const data = dataFolderVerdict(loaded.dataDir);
  add(data);
  if (data.blocks) return done();
  let radar: Radar;
  try {
    radar = await options.openRadar();
  } catch (error) {
    add(openFailure(error, loaded.dataDir));
    return done();
  }
  add(databaseVerdict(radar));
  const model = await checkModel(radar, options, add);
  report.probe = model.probe;
  add(execVerdict(radar.config, options.env), browserVerdict(await radar.agentStack()));
  add(
    await ntfyVerdict(radar.config, radar.notifier, {
      send: options.notify ?? false,
      fetch: options.fetch ?? fetch,
    }),
  );
  add(...await channelVerdicts(radar, { env: options.env, fetch: options.fetch ?? fetch }));
  report.suggestions = suggestSettings({
    config: radar.config,
    status: model.status,
    probe: model.probe,
    window: model.context?.window,
    firstRequestTokens: model.firstRequestTokens,
  });
  return done();
}

/** Server, model, tools, the probe and the loaded context; stops at the first blocker. */
async function checkModel(
  radar: Radar,
  options: DoctorOptions,
  add: (...found: Verdict[]) => void,
): Promise<{
  status?: ModelStatus;
  probe?: ProbeReport;
  context?: ContextFinding;
  firstRequestTokens?: number;
}> {
  const status = await radar.model.status();
  const found = statusVerdicts(status);
  add(...found);
  if (found.some((item) => item.blocks)) return { status };
  const { registry, agent: agentFor } = await radar.agentStack();
  const agent = agentFor();
  const systemPrompt = agent.systemPrompt();
  const offered = registry.select("hello", radar.config.llm.tool_budget_tokens);
  const toolTokens = offered.reduce((sum, tool) => sum + toolTokenCost(tool), 0);
  const firstRequestTokens = estimateFirstRequestTokens(systemPrompt, offered, "hello");
  const markerId = markerIdOf(agent);
  const now = radar.clock.now();
  const probe = await runProbe({
    model: radar.model,
    systemPrompt,
    tools: new Map(registry.list().map((tool) => [tool.name, tool])),
    toolSpec,
    temperature: agent.settings.temperature,
    budgetMs: options.probeBudgetMs ?? 90_000,
    caseTimeoutMs: options.caseTimeoutMs ?? 60_000,
    context: {
      user: (text) => ({
        role: "user",
        content: agent.stampUserMessage ? agent.stampUserMessage(text, now) : text,
      }),
      toolResult: (call, text) =>
        asModelMessage(
          { role: "tool", content: text, toolCallId: call.id, toolName: call.name },
          markerId,
        ),
    },
  });
  const judged = probeVerdicts(probe);
  add(...judged);
  if (judged.some((item) => item.blocks && item.check === "tools")) {
    return { status, probe, firstRequestTokens };
  }
  const context = await contextVerdicts({
    config: radar.config,
    status,
    firstRequestTokens,
    toolTokens,
    options: { fetch: options.fetch ?? fetch, logger: radar.logger, sleep },
  });
  add(...context.verdicts);
  return { status, probe, context, firstRequestTokens };
}
