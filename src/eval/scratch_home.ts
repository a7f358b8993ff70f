/**
 * What every eval suite runs in: a scratch home per task with its own data folder and database,
 * the user's model settings (never their keys when another server is named), write_file allowed
 * there only, what the real user protects still protected, and notifications caught locally.
 */
import { parse, stringify } from "yaml";
import { configuredFolders, dataDirectory } from "../config/paths.ts";
import {
  parentPlacesVariable,
  type RadarPlaces,
  radarPlacesFrom,
} from "../core/protected_paths.ts";
import { openRadar, type Radar } from "../runtime/open_radar.ts";
import type { TaskOutcome } from "../core/eval_records.ts";
import { firstLine, LlmError } from "../core/errors.ts";

/** Where the scratch Radar takes its model settings from. */
export interface ScratchOptions {
  /** The process environment (the model server's key etc. come from it). */
  env: Record<string, string | undefined>;
  /** The user's config file, for the model settings. */
  configPath?: string;
  /** Overrides `llm.base_url` and `llm.model`. */
  server?: string;
  model?: string;
}

/** Creates files under the scratch home (path → text or bytes). */
export function writeFiles(home: string, files: Record<string, string | Uint8Array>): void {
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
 * write into the user's own folders), and `extra` sections merged in; returns its path.
 */
function evalConfig(
  userPath: string | undefined,
  home: string,
  otherServer: boolean,
  extra: Record<string, Record<string, unknown>>,
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
  for (const [name, section] of Object.entries(extra)) {
    config[name] = { ...(config[name] ?? {}), ...section };
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
function realPlaces(options: ScratchOptions): RadarPlaces {
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

/** A Radar in `home`, notifications going to 127.0.0.1:`notifyPort`. */
export function openScratchRadar(
  options: ScratchOptions,
  home: string,
  notifyPort: number,
  extraConfig: Record<string, Record<string, unknown>> = {},
): Promise<Radar> {
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
  const configPath = evalConfig(
    options.configPath,
    home,
    options.server !== undefined,
    extraConfig,
  );
  return openRadar({ env, cwd: home, configPath, logLevel: "error", reportConfigWarnings: false });
}

/** A local ntfy stand-in: every body it was sent, its port, and how to stop it. */
export function startNotificationCatcher(): {
  bodies: string[];
  port: number;
  close(): Promise<void>;
} {
  const bodies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    bodies.push(await r.text());
    return Response.json({ id: "eval", event: "message" });
  });
  return { bodies, port: server.addr.port, close: () => server.shutdown() };
}

/** A task's outcome before it ran: failed, nothing called, nothing counted. */
export function blankOutcome(id: string): TaskOutcome {
  return {
    id,
    pass: false,
    toolCalls: [],
    toolsRight: false,
    toolResponses: 0,
    leakedResponses: 0,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 0,
  };
}

/**
 * Why a task failed, one line; a model server that is not there (or lacks the model) ends the
 * whole suite instead (rethrown).
 */
export function failedTask(error: unknown): string {
  if (
    error instanceof LlmError && (error.kind === "unreachable" || error.kind === "model_not_found")
  ) {
    throw error;
  }
  return firstLine(error, 300);
}
