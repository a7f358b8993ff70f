/** Builds the dashboard on real SQLite (temp dir), a scripted model and the real agent loop. */
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { ManualClock } from "../../src/adapters/clock.ts";
import { NtfyNotifier } from "../../src/adapters/ntfy_notifier.ts";
import { createPdfReader } from "../../src/adapters/pdf/subprocess_pdf_reader.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { SqliteFactStore } from "../../src/adapters/sqlite/fact_store.ts";
import { loadConfig } from "../../src/config/loader.ts";
import type { AgentDependencies } from "../../src/core/agent_types.ts";
import type { ChatModel } from "../../src/core/chat_model.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { builtinTools } from "../../src/tools/index.ts";
import { fileConfigFile } from "../../web/config_file.ts";
import { createApp } from "../../web/app.tsx";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { sessionCookieName, sessionValue } from "../../web/middleware/auth.ts";
import type { WebDependencies } from "../../web/ports.ts";
import { ScriptedChatModel, type ScriptStep } from "../fakes/scripted_chat_model.ts";
import { Secrets } from "../../src/core/secrets.ts";

/** Options of the fixture. */
export interface WebFixtureOptions {
  authToken?: string;
  script?: ScriptStep[];
  configText?: string;
  /** Replaces the scripted model (e.g. one that blocks until aborted). */
  chatModel?: ChatModel;
  extra?: Partial<WebDependencies>;
}

/** The token the fixture's dashboard uses unless a test sets one. */
export const testToken = "test-dashboard-token-0123456789abcdef";

/** Something that answers requests like Hono's `app.request`. */
export interface RequestTarget {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** Everything a dashboard test touches. */
export interface WebFixture {
  deps: WebDependencies;
  /** The app as a logged-in browser reaches it (its session cookie on every request). */
  app: RequestTarget;
  /** The app with no credentials added (anonymous visitors, scripts, attackers). */
  hono: ReturnType<typeof createApp>;
  model: ScriptedChatModel;
  db: DatabaseSync;
  conversations: SqliteConversationStore;
  facts: SqliteFactStore;
  clock: ManualClock;
  configPath: string;
  directory: string;
  close(): void;
}

/** Creates a fixture in a fresh temp directory; call close() at the end. */
export function createWebFixture(options: WebFixtureOptions = {}): WebFixture {
  const directory = Deno.makeTempDirSync({ prefix: "radar-web-" });
  const configPath = join(directory, "radar.yaml");
  Deno.writeTextFileSync(
    configPath,
    options.configText ?? '# my settings\nllm:\n  model: "test-model" # the small one\n',
  );
  const env = { HOME: directory, RADAR_DATA_DIR: join(directory, "data") };
  const loaded = loadConfig({
    explicitPath: configPath,
    env,
    cwd: directory,
    readTextFile: (path) => Deno.readTextFileSync(path),
  });
  const db = openDatabase(join(directory, "radar.db"));
  const conversations = new SqliteConversationStore(db);
  const facts = new SqliteFactStore(db);
  const clock = new ManualClock(new Date("2026-11-22T10:00:00Z"));
  const model = new ScriptedChatModel(options.script ?? []);
  const registry = new ToolRegistry();
  for (
    const tool of builtinTools({
      config: loaded.config,
      dataDir: directory,
      facts,
      clock,
      logger: silentLogger,
      fetch: globalThis.fetch,
      notifier: new NtfyNotifier({ config: loaded.config, fetch: globalThis.fetch }),
      env,
      secrets: new Secrets(),
      pdfReader: createPdfReader(loaded.config.tools.pdf, Deno.env.toObject()),
    })
  ) registry.register(tool);
  const agent = (): AgentDependencies => ({
    model: options.chatModel ?? model,
    registry,
    store: conversations,
    clock,
    elapsed: () => performance.now(),
    systemPrompt: () => "You are Radar.",
    settings: {
      maxToolIterations: 5,
      temperature: 0,
      toolBudgetTokens: 2000,
      historyMessages: 20,
      maxResultChars: 4000,
    },
  });
  const deps: WebDependencies = {
    conversations,
    facts,
    config: fileConfigFile({ loaded, env, cwd: directory }),
    agent,
    model,
    clock,
    logger: silentLogger,
    authToken: options.authToken ?? testToken,
    toolCount: () => registry.list().length,
    ...options.extra,
  };
  const hono = createApp(deps);
  const session = sessionValue(deps.authToken);
  return {
    deps,
    hono,
    app: {
      request: async (path, init = {}) => {
        const headers = new Headers(init.headers);
        if (!headers.has("cookie") && !headers.has("authorization")) {
          headers.set("Cookie", `${sessionCookieName}=${await session}`);
        }
        return await hono.request(path, { ...init, headers });
      },
    },
    model,
    db,
    conversations,
    facts,
    clock,
    configPath,
    directory,
    close() {
      db.close();
      Deno.removeSync(directory, { recursive: true });
    },
  };
}

/** The origin app.request() uses. */
export const testOrigin = "http://localhost";

/** A same-origin form POST as a browser would send it. */
export function postForm(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: testOrigin,
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  };
}

/** A real Radar in a temp folder (config pointing at no model) with its dashboard app. */
export async function runtimeDashboard(prefix: string, configComment = "") {
  const directory = Deno.makeTempDirSync({ prefix });
  const configPath = join(directory, "radar.yaml");
  Deno.writeTextFileSync(
    configPath,
    `llm:\n  base_url: "http://127.0.0.1:9"\n${configComment ? `# ${configComment}\n` : ""}`,
  );
  const dataDir = join(directory, "data");
  const env = { HOME: directory, RADAR_DATA_DIR: dataDir, PATH: "/usr/bin:/bin" };
  const radar = await openRadar({ configPath, env, cwd: directory, logLevel: "error" });
  const deps = await webDependenciesFromRuntime(radar, { env });
  return {
    directory,
    configPath,
    dataDir,
    radar,
    deps,
    app: createApp(deps),
    auth: { Authorization: `Bearer ${deps.authToken}` },
    close() {
      radar.close();
      Deno.removeSync(directory, { recursive: true });
    },
  };
}
