/**
 * Runs the eval suite against the configured (or given) model server: each task in a fresh
 * scratch home with its own database, the real tools, notifications caught by a local server.
 */
import type { TaskOutcome } from "../core/eval_records.ts";
import { parse, stringify } from "yaml";
import { runAgent } from "../core/agent_loop.ts";
import { LlmError } from "../core/errors.ts";
import { openRadar } from "../runtime/open_radar.ts";
import { configuredFolders, dataDirectory } from "../config/paths.ts";
import {
  parentPlacesVariable,
  type RadarPlaces,
  radarPlacesFrom,
} from "../core/protected_paths.ts";
import { type EvalTask, evalTasks } from "./eval_tasks.ts";
import { firstLine } from "../core/first_line.ts";

/** How to run the eval. */
export interface EvalOptions {
  /** The process environment (the model server's key etc. come from it). */
  env: Record<string, string | undefined>;
  /** The user's config file, for the model settings. */
  configPath?: string;
  /** Overrides `llm.base_url` and `llm.model`. */
  server?: string;
  model?: string;
  tasks?: EvalTask[];
  /** Per task (default 180 s). */
  timeoutMs?: number;
  /** Called after each task. */
  onTask?: (outcome: TaskOutcome) => void;
}

/** The whole run. */
export interface EvalReport {
  model: string;
  server: string;
  outcomes: TaskOutcome[];
}

/** Whether the run called what the task expects. */
function toolsMatch(task: EvalTask, called: ReadonlyArray<{ name: string; ok: boolean }>) {
  const ran = new Set(called.filter((call) => call.ok).map((call) => call.name));
  if (task.expect.none) return called.length === 0;
  return (task.expect.all ?? []).every((name) => ran.has(name)) &&
    (!task.expect.any || task.expect.any.some((name) => ran.has(name)));
}

function writeFiles(home: string, files: Record<string, string | Uint8Array>) {
  for (const [path, content] of Object.entries(files)) {
    const full = `${home}/${path}`;
    Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(full, content);
    else Deno.writeFileSync(full, content);
  }
}

/**
 * Writes the user's config (for the model settings) into the scratch home, with write_file allowed
 * there and nowhere else (the eval measures the model, not the approval policy, and must not
 * write into the user's own folders); returns its path.
 */
function evalConfig(
  userPath: string | undefined,
  home: string,
  otherServer: boolean,
): string {
  const config = (userPath ? parse(Deno.readTextFileSync(userPath)) : undefined) ?? {};
  // Another server (--server) never gets the user's keys: they belong to the configured one.
  if (otherServer) {
    for (const section of [config.llm, config.ollama]) {
      if (!section || typeof section !== "object") continue;
      delete section.api_key;
      for (const role of Object.values(section.models ?? {})) {
        if (role && typeof role === "object") delete (role as Record<string, unknown>).api_key;
      }
    }
  }
  const tools = config.tools ??= {};
  const files = tools.files ??= {};
  files.writable_roots = [home];
  if (Array.isArray(files.allowed_roots) && files.allowed_roots.length) {
    files.allowed_roots = [...files.allowed_roots, home];
  }
  // Written into the scratch home: the runtime reads its config from a file like every command.
  const path = `${home}/.radar-eval.yaml`;
  Deno.writeTextFileSync(path, stringify(config));
  return path;
}

/** The environment without any LLM API key (`RADAR_LLM_API_KEY`, `RADAR_LLM_<ROLE>_API_KEY`). */
function withoutApiKeys(
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !/^RADAR_LLM_(\w+_)?API_KEY$/.test(name)),
  );
}

/** The places of the Radar running the eval (its user's home, data, config and cache). */
function realPlaces(options: EvalOptions): RadarPlaces {
  let configured = "";
  let folders: Pick<RadarPlaces, "backupFolder" | "browserProfile"> = {};
  const cwd = options.env.PWD ?? "/";
  try {
    const config = options.configPath ? parse(Deno.readTextFileSync(options.configPath)) : {};
    configured = String(config?.radar?.data_dir ?? "");
    folders = configuredFolders(
      {
        backup: { folder: String(config?.backup?.folder ?? "") },
        browser: { profile: String(config?.browser?.profile ?? "") },
      },
      options.env,
      cwd,
    );
  } catch { /* unreadable: the default data folder */ }
  const dataDir = dataDirectory(options.env, configured, cwd);
  return { ...radarPlacesFrom(options.env, dataDir, options.configPath), ...folders };
}

/** Runs every task (in order) and returns their outcomes. */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const notifications: string[] = [];
  const catcher = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    notifications.push(await r.text());
    return Response.json({ id: "eval", event: "message" });
  });
  const report: EvalReport = { model: "", server: "", outcomes: [] };
  try {
    for (const task of options.tasks ?? evalTasks) {
      notifications.length = 0;
      const outcome = await runTask(task, options, catcher.addr.port, notifications, report);
      report.outcomes.push(outcome);
      options.onTask?.(outcome);
    }
  } finally {
    await catcher.shutdown();
  }
  return report;
}

async function runTask(
  task: EvalTask,
  options: EvalOptions,
  notifyPort: number,
  notifications: string[],
  report: EvalReport,
): Promise<TaskOutcome> {
  const home = Deno.makeTempDirSync({ prefix: `radar-eval-${task.id}-` });
  const env: Record<string, string | undefined> = {
    ...(options.server ? withoutApiKeys(options.env) : options.env),
    // What the task runs protect comes from the real user's places, not from the scratch HOME.
    [parentPlacesVariable]: JSON.stringify(realPlaces(options)),
    HOME: home,
    USERPROFILE: home,
    XDG_STATE_HOME: undefined,
    XDG_DATA_HOME: undefined,
    XDG_CACHE_HOME: undefined,
    RADAR_DATA_DIR: `${home}/.radar-eval`,
    RADAR_NTFY_URL: `http://127.0.0.1:${notifyPort}`,
    RADAR_NTFY_TOPIC: "radar-eval",
  };
  if (options.server) env.RADAR_LLM_BASE_URL = options.server;
  if (options.model) env.RADAR_LLM_MODEL = options.model;
  writeFiles(home, task.files ?? {});
  const configPath = evalConfig(options.configPath, home, options.server !== undefined);
  const runtime = openRadar({
    env,
    cwd: home,
    configPath,
    logLevel: "error",
    reportConfigWarnings: false,
  });
  report.model = runtime.config.llm.model;
  report.server = runtime.config.llm.base_url;
  const outcome: TaskOutcome = {
    id: task.id,
    pass: false,
    toolCalls: [],
    toolsRight: false,
    toolResponses: 0,
    leakedResponses: 0,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 0,
  };
  const startedAt = runtime.clock.now();
  const started = performance.now();
  try {
    for (const content of task.facts ?? []) {
      runtime.facts.addFact({ category: "learned_fact", content }, startedAt);
    }
    const conversationId = runtime.conversations.createConversation("ask", task.prompt, startedAt);
    // An eval run asks nobody: an action that needs a yes is refused, never left pending.
    const result = await runAgent({
      ...runtime.agent(),
      guard: runtime.away.guard({ approvals: false }),
    }, {
      conversationId,
      kind: "ask",
      userMessage: task.prompt,
      interactive: false,
      signal: AbortSignal.timeout(options.timeoutMs ?? 180_000),
      onEvent: (event) => {
        if (event.type !== "model_finished" || !event.response.toolCalls.length) return;
        outcome.toolResponses++;
        if (event.response.warnings?.some((warning) => /wrote as text/.test(warning))) {
          outcome.leakedResponses++;
        }
      },
    });
    outcome.latencyMs = Math.round(performance.now() - started);
    outcome.promptTokens = result.usage?.promptTokens ?? 0;
    outcome.completionTokens = result.usage?.completionTokens ?? 0;
    outcome.toolCalls = result.toolExecutions.map((execution) => execution.name);
    outcome.toolsRight = toolsMatch(
      task,
      result.toolExecutions.map((execution) => ({
        name: execution.name,
        ok: execution.result.outcome === "ok",
      })),
    );
    const problem = result.stopReason === "answer"
      ? task.check({ home, runtime, result, notifications, startedAt })
      : `stopped: ${result.stopReason}`;
    outcome.pass = problem === undefined && outcome.toolsRight;
    outcome.reason = problem ?? (outcome.toolsRight ? undefined : "expected tools not called");
  } catch (error) {
    if (
      error instanceof LlmError &&
      (error.kind === "unreachable" || error.kind === "model_not_found")
    ) {
      throw error;
    }
    outcome.latencyMs = Math.round(performance.now() - started);
    outcome.reason = firstLine(error);
  } finally {
    runtime.close();
    Deno.removeSync(home, { recursive: true });
  }
  return outcome;
}
