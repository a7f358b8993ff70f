/**
 * A real Radar runtime in a temp home whose model is the fake LLM server over real HTTP: the
 * config file (RADAR_CONFIG), the environment, captured log lines, plugin folders installed and
 * approved by an installer Radar, and one chat turn through the agent loop. (For a runtime with a
 * scripted in-process model see test_radar.ts.)
 */
import { join } from "node:path";
import type { ChatMessage } from "../../src/core/chat_model.ts";
import type { Clock } from "../../src/core/ports.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { readPassword } from "../../src/adapters/os/account_secrets.ts";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";

/** The config these tests start from: no retries, so a failed model call fails at once. */
export const noRetriesYaml = "llm:\n  retries: 0\n";

/** The same with plugins off (no plugin host to start). */
export const noPluginsYaml = `${noRetriesYaml}plugins:\n  enabled: false\n`;

/** What a known secret is replaced with in text sent to a model or stored. */
export const secretMask = "********";

/** A temp home with a fake LLM server; `open()` starts a Radar on it. */
export interface FakeLlmHome {
  folder: string;
  server: FakeLlmServer;
  env: Record<string, string>;
  /** Every log line of every Radar opened here (at `logLevel` and above). */
  logged: string[];
  open(): Promise<Radar>;
  /** Opens a Radar, runs `work`, then stops its plugins and closes it. */
  withRadar(work: (radar: Radar) => Promise<void>): Promise<void>;
  /** Writes a plugin folder, installs and approves it with an installer Radar, closes that. */
  installPlugin(name: string, files: Record<string, string>): Promise<void>;
}

/** How to set up a fake LLM home. */
export interface FakeLlmHomeOptions {
  /** Prefix of the temp folder's name. */
  prefix: string;
  /** The whole radar-test.yaml (default: no retries). */
  yaml?: string;
  logLevel?: "error" | "warn";
  clock?: Clock;
  /** See `RadarOptions.usersNetwork` (browser tests: `testUsersNetwork`). */
  usersNetwork?: (address: string) => boolean;
}

/** Runs `work` in a fresh fake LLM home; closes the server and removes the folder afterwards. */
export async function withFakeLlmHome(
  options: FakeLlmHomeOptions,
  work: (home: FakeLlmHome) => Promise<void>,
): Promise<void> {
  const server = FakeLlmServer.start();
  const folder = Deno.makeTempDirSync({ prefix: options.prefix });
  const config = join(folder, "radar-test.yaml");
  Deno.writeTextFileSync(config, options.yaml ?? noRetriesYaml);
  const env: Record<string, string> = {
    HOME: folder,
    RADAR_CONFIG: config,
    RADAR_DATA_DIR: join(folder, "data"),
    RADAR_LLM_BASE_URL: server.url,
  };
  const logged: string[] = [];
  const open = () =>
    openRadar({
      env,
      cwd: folder,
      clock: options.clock,
      usersNetwork: options.usersNetwork,
      logLevel: options.logLevel ?? "error",
      logWriters: [(line) => logged.push(line)],
    });
  const withRadar = async (run: (radar: Radar) => Promise<void>) => {
    const radar = await open();
    try {
      await run(radar);
    } finally {
      await (await radar.plugins())?.stop();
      radar.close();
    }
  };
  const installPlugin = (name: string, files: Record<string, string>) =>
    withRadar(async (installer) => {
      writeFolder(join(folder, "sources", name), files);
      const plugins = (await installer.plugins())!;
      plugins.manager.install(join(folder, "sources", name));
      await plugins.api.approve(name);
    });
  try {
    await work({ folder, server, env, logged, open, withRadar, installPlugin });
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
}

/**
 * Runs `work` with a Radar opened in a fresh fake LLM home, after installing and approving
 * `plugins` (name → files) with an installer Radar; `home.logged` starts empty for `work`.
 */
export async function withFakeLlmRadar(
  options: FakeLlmHomeOptions & { plugins?: Record<string, Record<string, string>> },
  work: (radar: Radar, home: FakeLlmHome) => Promise<void>,
): Promise<void> {
  await withFakeLlmHome(options, async (home) => {
    for (const [name, files] of Object.entries(options.plugins ?? {})) {
      await home.installPlugin(name, files);
    }
    home.logged.length = 0;
    await home.withRadar((radar) => work(radar, home));
  });
}

/**
 * One chat run of `message`, in a new conversation unless one is given; interactive only when
 * `confirm` answers the questions.
 */
export async function chatTurn(
  radar: Radar,
  message: string,
  options: {
    conversationId?: number;
    toolNames?: string[];
    confirm?: (question: string) => Promise<boolean>;
  } = {},
) {
  const id = options.conversationId ??
    radar.conversations.createConversation("chat", "t", radar.clock.now());
  const result = await runAgent(await radar.agent(), {
    conversationId: id,
    kind: "chat",
    userMessage: message,
    interactive: options.confirm !== undefined,
    confirm: options.confirm,
    ...(options.toolNames ? { toolNames: options.toolNames } : {}),
  });
  return { id, result };
}

/**
 * Stores a chat conversation holding `messages`, all written at `at` (as an earlier run or an
 * older Radar would have left it); returns its id.
 */
export function seedConversation(
  radar: Radar,
  messages: ChatMessage[],
  options: { at?: Date; title?: string } = {},
): number {
  const at = options.at ?? radar.clock.now();
  const id = radar.conversations.createConversation("chat", options.title ?? "t", at);
  for (const message of messages) {
    radar.conversations.appendMessage(id, { ...message, createdAt: at });
  }
  return id;
}

/** Everything the fake server was sent in chat requests (from request `from` on), as one text. */
export function sentText(server: FakeLlmServer, from = 0): string {
  return server.chatRequests.slice(from).map((request) => JSON.stringify(request.body)).join("\n");
}

/** Makes `value` a secret `radar` knows the way a source does: its password_env `name` is read. */
export function learnSecretFromEnv(radar: Radar, name: string, value: string, label = "vault") {
  return readPassword({ password_cmd: "", password_env: name }, label, {
    env: { [name]: value },
    timeoutMs: 1000,
    secrets: radar.secrets,
  });
}
