/** The radar.yaml schema: every key has a default, so Radar runs with no file at all. */
import { comicsToolSection, librarySection } from "./library_schema.ts";
import { z } from "zod";
import * as bounds from "../core/bounds.ts";
import { isKnownTimeZone } from "../core/zoned_time.ts";
import { calendarSection, emailSection } from "./sources_schema.ts";
import { mcpSection } from "./mcp_schema.ts";
import { hookPoints, hookRuleTypes } from "../core/hooks.ts";
import { checksSection, githubSection } from "./checks_schema.ts";
import { digestsSection } from "./digests_schema.ts";
import { moneySection } from "./money_schema.ts";
import { backupSection, budgetSection } from "./backup_schema.ts";
import { browserSection } from "./browser_schema.ts";
import { channelsSection, notificationTargets } from "./channels_schema.ts";

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected HH:MM (24-hour)");
const positiveInt = z.number().int().positive();

/** True for "" (the system's zone) and any zone this runtime knows ("Mars/Olympus" is not). */
function isTimeZone(name: string): boolean {
  return !name || isKnownTimeZone(name);
}

/** `radar:` identity and personality. */
const radarSection = z.object({
  name: z.string().min(1).default("Radar"),
  /**
   * The personality's name (`<data>/personalities/NAME.md` or `NAME/PERSONALITY.md`, a plugin's,
   * or the bundled `default`), or a path. Text with spaces that names nothing is an inline
   * personality (the old meaning).
   */
  personality: z.string().default("default"),
  /** IANA time zone for schedules and the prompt; empty means the system's. */
  timezone: z.string().refine(isTimeZone, "expected an IANA time zone such as Europe/Amsterdam")
    .default(""),
  /** Overrides the data directory (RADAR_DATA_DIR wins over this). */
  data_dir: z.string().default(""),
  log_level: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

/**
 * One model role under `llm.models`. Empty fields inherit the main model's (`llm.base_url`, …);
 * an empty `model` leaves the role unset. The API key is inherited only with the server.
 */
const modelRole = z.object({
  provider: z.enum(["ollama", "openai", ""]).default(""),
  base_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default(""),
  model: z.string().default(""),
  api_key: z.string().default(""),
});

/** `llm:` (alias `ollama:`): which server and model, and how to talk to it. */
const llmSection = z.object({
  /** ollama = native /api/chat; openai = /v1/chat/completions. Empty: inferred from base_url. */
  provider: z.enum(["ollama", "openai", ""]).default(""),
  base_url: z.url({ protocol: /^https?$/ }).default("http://localhost:11434"),
  model: z.string().min(1).default("qwen2.5:14b"),
  /** Bearer token for OpenAI-compatible servers that need one. */
  api_key: z.string().default(""),
  temperature: z.number().min(0).max(2).default(0.3),
  max_tool_iterations: positiveInt.max(100).default(10),
  /** Token budget for tool schemas offered on one request. */
  tool_budget_tokens: positiveInt.max(bounds.maxConfigTokens).default(1200),
  connect_timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(10),
  /** A cold model can take minutes to load and answer: the whole exchange's upper bound. */
  response_timeout_seconds: z.number().positive().max(86_400).default(300),
  /** Until the server's first byte (headers): a stream:false answer comes only when it is done. */
  first_byte_timeout_seconds: z.number().positive().max(86_400).default(300),
  /** Longest silence once the server has started answering. */
  idle_timeout_seconds: z.number().positive().max(3600).default(30),
  /** Larger answers are cut off (a runaway or hostile server cannot fill the memory). */
  max_response_mib: z.number().positive().max(1024).default(16),
  /** The most Radar waits between retries of one request, `Retry-After` included. */
  max_retry_wait_seconds: z.number().min(0).max(3600).default(60),
  retries: z.number().int().min(0).max(10).default(3),
  /** Upper bound for Ollama's num_ctx; 0 means use the model's context length. */
  max_context_tokens: z.number().int().min(0).max(bounds.maxConfigTokens).default(0),
  keep_alive: z.string().default("30m"),
  /** Embedding model for tool ranking and semantic memory (e.g. nomic-embed-text); empty = none. */
  embedding_model: z.string().default(""),
  /** Its server when not llm.base_url (ending in /v1 = OpenAI-compatible /v1/embeddings). */
  embedding_base_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default(""),
  /**
   * Model roles: `main` (overrides base_url/model above when its model is set), `fast` (heartbeat
   * triage), `vision` (image-only PDF pages) and `fallback` (used while the main server is down).
   */
  models: z.object({
    main: modelRole.prefault({}),
    fast: modelRole.prefault({}),
    vision: modelRole.prefault({}),
    fallback: modelRole.prefault({}),
  }).prefault({}),
});

/** `heartbeat:` the schedule of proactive checks. */
const heartbeatSection = z.object({
  enabled: z.boolean().default(true),
  interval_minutes: positiveInt.max(1440).default(15),
  quiet_hours: z.object({
    start: clockTime.default("23:00"),
    end: clockTime.default("07:00"),
  }).nullable().prefault({}),
  always_call_llm: z.boolean().default(false),
  /** Recent heartbeat messages replayed as context. */
  history_messages: z.number().int().min(0).max(200).default(12),
  max_events_per_tick: positiveInt.max(500).default(40),
  /** The personality heartbeats run with; empty = the active one. */
  personality: z.string().default(""),
});

/** `notifications:` where `notify` sends. */
const notificationsSection = z.object({
  ntfy: z.object({
    url: z.url({ protocol: /^https?$/ }).default("https://ntfy.sh"),
    /** Empty means not configured. */
    topic: z.string().default(""),
    /** Access token for protected topics. */
    token: z.string().default(""),
  }).prefault({}),
  /** Where notices go: ntfy and any configured chat channel (`channels:`). */
  channels: notificationTargets,
});

/** `memory:` how much history and which notes reach the prompt. */
const memorySection = z.object({
  /** Recent exchanges (user + assistant turns) replayed into a conversation's context. */
  max_conversation_context: z.number().int().min(0).max(200).default(10),
  max_personality_notes: z.number().int().min(0).max(50).default(5),
  /** Quiet conversations summarized into memory (`recall` finds them by keywords and meaning). */
  conversation_summaries: z.object({
    enabled: z.boolean().default(true),
    /** Minutes without a message before a conversation is summarized. */
    quiet_minutes: positiveInt.max(10_080).default(30),
    /** User and assistant messages a conversation needs to be worth a summary. */
    min_messages: z.number().int().min(2).max(1000).default(4),
  }).prefault({}),
});

/** One file watcher. */
const watcherEntry = z.object({
  path: z.string().min(1),
  pattern: z.string().default("*"),
  action: z.string().default("file_added"),
  recursive: z.boolean().default(false),
  /** Urgent files wake the heartbeat during quiet hours. */
  urgent: z.boolean().default(false),
});

/** `tools:` per-tool settings and safety rails. */
const toolsSection = z.object({
  max_result_chars: positiveInt.max(bounds.maxConfigChars).default(8000),
  audit_retention_days: positiveInt.max(bounds.maxRetentionDays).default(90),
  exec: z.object({
    enabled: z.boolean().default(true),
    /** Approval policy (the sandbox is the boundary): see radar.yaml. */
    mode: z.enum(["safe_only", "block_dangerous", "allow_all"]).default("block_dangerous"),
    timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(30),
    /** bubblewrap (Linux) / sandbox-exec (macOS) wherever available. */
    sandbox: z.boolean().default(true),
    /** Writable besides the scratch folder; written only after a yes in chat (mode allow_all: always). */
    writable_roots: z.array(z.string()).default([]),
    /** Empty: $XDG_STATE_HOME/radar/scratch. */
    scratch_dir: z.string().default(""),
    allow_network: z.boolean().default(false),
    max_output_chars: positiveInt.max(bounds.maxConfigChars).default(4000),
    /** RLIMIT_NPROC inside the sandbox. */
    max_processes: positiveInt.max(bounds.maxProcesses).default(256),
    /** RLIMIT_DATA inside the sandbox (0: no limit). */
    max_memory_mb: z.number().int().min(0).max(bounds.maxMemoryMb).default(1024),
  }).prefault({}),
  files: z.object({
    max_read_bytes: positiveInt.max(bounds.maxConfigBytes).default(200_000),
    blocked_paths: z.array(z.string()).default([]),
    /** When non-empty, file tools only work under these folders. */
    allowed_roots: z.array(z.string()).default([]),
    /** write_file writes here (and the scratch folder) without asking; elsewhere needs a yes in chat. */
    writable_roots: z.array(z.string()).default([]),
    /** Days the action journal keeps file changes (and copies of replaced files) for undo. */
    journal_days: positiveInt.max(bounds.maxRetentionDays).default(30),
  }).prefault({}),
  comics: comicsToolSection.prefault({}),
  pdf: z.object({
    first_pages: z.number().int().min(0).max(bounds.maxConfigPages).default(2),
    last_pages: z.number().int().min(0).max(bounds.maxConfigPages).default(1),
    timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(20),
  }).prefault({}),
  web_search: z.object({
    /** duckduckgo (no key; also what "" means), searxng (needs url) or brave (needs a key). */
    provider: z.enum(["", "duckduckgo", "searxng", "brave"]).default("duckduckgo"),
    url: z.string().default(""),
    api_key: z.string().default(""),
    api_key_cmd: z.string().default(""),
    max_results: positiveInt.max(20).default(5),
  }).prefault({}),
  weather: z.object({
    units: z.enum(["metric", "imperial"]).default("metric"),
    /** Own Open-Meteo endpoints (self-hosted); empty = the public ones. */
    forecast_url: z.string().default(""),
    geocoding_url: z.string().default(""),
  }).prefault({}),
  fetch_url: z.object({
    max_chars: positiveInt.max(bounds.maxConfigChars).default(8000),
    timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(20),
    allow_private: z.boolean().default(false),
  }).prefault({}),
});

/** The shortest `web.auth_token` accepted: a guessable token would guard the dashboard. */
export const minAuthTokenLength = 24;

/** `web:` the dashboard. */
const webSection = z.object({
  host: z.string().default("127.0.0.1"),
  port: z.number().int().min(0).max(65535).default(8420),
  /**
   * The dashboard token; required when host is not loopback. Empty: Radar generates one in its
   * data folder (the dashboard needs a login on loopback too).
   */
  auth_token: z.string().refine(
    (token) => token === "" || token.length >= minAuthTokenLength,
    `expected at least ${minAuthTokenLength} characters (or "" for a generated token)`,
  ).default(""),
  /**
   * Where your phone reaches the dashboard (a VPN or reverse-proxy address such as
   * https://radar.tailnet.ts.net); approval buttons in notifications point there. Empty:
   * http://HOST:PORT from above.
   */
  public_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default(""),
});

/** `plugins:` the plugin host and LLM-created tools. */
const pluginsSection = z.object({
  enabled: z.boolean().default(true),
  allow_llm_generated: z.boolean().default(false),
  auto_approve_if_tests_pass: z.boolean().default(false),
  max_debug_attempts: z.number().int().min(0).max(10).default(3),
  call_timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(10),
  memory_mb: positiveInt.max(bounds.maxMemoryMb).default(128),
  idle_seconds: positiveInt.max(bounds.maxTimeoutSeconds).default(300),
  max_result_chars: positiveInt.max(bounds.maxConfigChars).default(16000),
});

/** A `hooks.rules` entry (type-specific checks in `superRefine`). */
const hookRule = z.object({
  name: z.string().min(1).max(80),
  type: z.enum(Object.keys(hookRuleTypes) as [keyof typeof hookRuleTypes]),
  /** Default: the type's first point. */
  hook_point: z.enum(hookPoints).optional(),
  /** Case-insensitive substrings; regular expressions for redact_response. */
  patterns: z.array(z.string().min(1).max(500)).max(100).default([]),
  /** Folders for block_path_pattern (`~` allowed). */
  paths: z.array(z.string().min(1)).max(100).default([]),
  tools: z.array(z.string().min(1)).max(100).default([]),
  message: z.string().max(300).default(""),
  replacement: z.string().max(200).default("[redacted]"),
  start_hour: z.number().int().min(0).max(23).optional(),
  end_hour: z.number().int().min(0).max(23).optional(),
  log_level: z.enum(["debug", "info", "warn"]).default("info"),
  priority: z.number().int().min(0).max(1000).default(50),
  enabled: z.boolean().default(true),
}).superRefine((rule, context) => {
  const issue = (path: (string | number)[], message: string) =>
    context.addIssue({ code: "custom", path, message });
  const points: readonly string[] = hookRuleTypes[rule.type];
  if (rule.hook_point && !points.includes(rule.hook_point)) {
    issue(["hook_point"], `a ${rule.type} rule acts at ${points.join(" or ")}`);
  }
  const needs = (key: "patterns" | "paths" | "tools", types: string[]) => {
    if (types.includes(rule.type) && !rule[key].length) {
      issue([key], `a ${rule.type} rule needs ${key}`);
    }
  };
  needs("patterns", [
    "block_command_pattern",
    "block_message_pattern",
    "redact_response",
    "block_memory_pattern",
    "filter_memory_pattern",
  ]);
  needs("paths", ["block_path_pattern"]);
  needs("tools", ["block_tool", "time_restrict", "allowlist", "denylist"]);
  if (
    rule.type === "time_restrict" && (rule.start_hour === undefined || rule.end_hour === undefined)
  ) {
    issue(["start_hour"], "time_restrict needs start_hour and end_hour");
  }
  if (rule.type === "redact_response") {
    rule.patterns.forEach((pattern, index) => {
      try {
        new RegExp(pattern, "gi");
      } catch (error) {
        issue(["patterns", index], `invalid regular expression (${(error as Error).message})`);
        return;
      }
      // Patterns run on RE2 (linear time, src/hooks/linear_regex.ts), which has neither.
      const unsupported = /\(\?<?[=!]/.test(pattern)
        ? "lookahead and lookbehind"
        : /\\[1-9]|\\k</.test(pattern)
        ? "backreferences"
        : undefined;
      if (unsupported) {
        issue(
          ["patterns", index],
          `${unsupported} are not supported (patterns run in linear time, on RE2)`,
        );
      }
    });
  }
});

/** `hooks:` config rules at the hook points (plugins add theirs through the plugin host). */
const hooksSection = z.object({
  enabled: z.boolean().default(true),
  rules: z.array(hookRule).max(200).default([]),
});

/** `skills:` Agent Skills folders (`<data>/skills/` and the bundled ones are always searched). */
const skillsSection = z.object({
  enabled: z.boolean().default(true),
  dirs: z.array(z.string().min(1)).max(50).default([]),
});

/**
 * One `grants:` rule: a standing grant in radar.yaml (a tool and glob patterns for its arguments;
 * paths with `~`). Checked like every grant: never over protected places or Radar's own state.
 */
const grantRule = z.object({
  tool: z.string().min(1).max(100),
  arguments: z.record(z.string().min(1).max(100), z.string().min(1).max(1000)),
  note: z.string().max(300).default(""),
});

/** `approvals:` what a run without a person does with an action that needs a yes. */
const approvalsSection = z.object({
  /** How long a pending approval waits for an answer. */
  expire_hours: z.number().positive().max(24 * 30).default(24),
  /** Push each pending approval to ntfy with Approve/Deny buttons (needs notifications.ntfy). */
  notify: z.boolean().default(true),
});

/** The whole configuration. */
export const configSchema = z.object({
  radar: radarSection.prefault({}),
  llm: llmSection.prefault({}),
  heartbeat: heartbeatSection.prefault({}),
  notifications: notificationsSection.prefault({}),
  memory: memorySection.prefault({}),
  watchers: z.array(watcherEntry).default([]),
  tools: toolsSection.prefault({}),
  web: webSection.prefault({}),
  plugins: pluginsSection.prefault({}),
  email: emailSection.prefault({}),
  calendar: calendarSection.prefault({}),
  checks: checksSection,
  github: githubSection.prefault({}),
  digests: digestsSection.prefault({}),
  money: moneySection.prefault({}),
  hooks: hooksSection.prefault({}),
  skills: skillsSection.prefault({}),
  mcp: mcpSection.prefault({}),
  approvals: approvalsSection.prefault({}),
  grants: z.array(grantRule).max(200).default([]),
  backup: backupSection.prefault({}),
  budget: budgetSection.prefault({}),
  browser: browserSection.prefault({}),
  library: librarySection.prefault({}),
  channels: channelsSection.prefault({}),
}).superRefine((config, context) => {
  // A channel named for notices, or a mail account named by the email channel, must exist.
  config.notifications.channels.forEach((target, index) => {
    if (target !== "ntfy" && !config.channels[target]) {
      context.addIssue({
        code: "custom",
        path: ["notifications", "channels", index],
        message: `${target} is not configured (no channels.${target} section)`,
      });
    }
  });
  const account = config.channels.email?.account;
  if (account && !config.email.accounts.some((entry) => entry.name === account)) {
    context.addIssue({
      code: "custom",
      path: ["channels", "email", "account"],
      message: `no email.accounts entry is named "${account}"`,
    });
  }
});

/** The validated configuration with every default applied. */
export type RadarConfig = z.output<typeof configSchema>;

/** The configuration with nothing set: every default. */
export function defaultConfig(): RadarConfig {
  return configSchema.parse({});
}
