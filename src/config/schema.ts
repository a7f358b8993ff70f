/** The radar.yaml schema: every key has a default, so Radar runs with no file at all. */
import "./zod_jitless.ts";
import { comicsToolSection, librarySection } from "./library_schema.ts";
import { z } from "zod";
import { normalizeOrigin } from "../core/origins.ts";
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
  name: z.string().min(1).default("Radar").describe("What the assistant calls itself."),
  personality: z.string().default("default").describe(
    "The active personality's name (`<data>/personalities/NAME.md` or `NAME/PERSONALITY.md`, a plugin's, or the bundled `default`). `radar personality use NAME`, `RADAR_PERSONALITY` and `-P NAME` take precedence. Text with spaces that names nothing is an inline personality (the old meaning).",
  ),
  timezone: z.string().refine(isTimeZone, "expected an IANA time zone such as Europe/Amsterdam")
    .default("").describe(
      'IANA time zone for schedules, budgets, quiet hours and the prompt, e.g. `"Europe/Amsterdam"`; empty: the system\'s.',
    ),
  data_dir: z.string().default("").describe(
    "Overrides the data directory (`RADAR_DATA_DIR` wins over this); empty: `$XDG_DATA_HOME/radar` (`~/.local/share/radar`).",
  ),
  log_level: z.enum(["debug", "info", "warn", "error"]).default("info").describe(
    "The least important log lines written.",
  ),
}).describe("Identity, personality, time zone and data folder.");

/**
 * One model role under `llm.models`. Empty fields inherit the main model's (`llm.base_url`, …);
 * an empty `model` leaves the role unset. The API key is inherited only with the server.
 */
const modelRole = z.object({
  provider: z.enum(["ollama", "openai", ""]).default("").describe(
    "The wire format; empty: inherited, or inferred from `base_url`.",
  ),
  base_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default("").describe(
    "The role's server; empty: `llm.base_url`.",
  ),
  model: z.string().default("").describe("The role's model; empty: the role is not set."),
  api_key: z.string().default("").describe(
    "Bearer token; empty: `llm.api_key` when the server is the same.",
  ),
});

/** `llm:` (alias `ollama:`): which server and model, and how to talk to it. */
const llmSection = z.object({
  provider: z.enum(["ollama", "openai", ""]).default("").describe(
    "`ollama` = native /api/chat; `openai` = /v1/chat/completions (llama-server, vLLM, LM Studio). Empty: `openai` when `base_url` ends in /v1.",
  ),
  base_url: z.url({ protocol: /^https?$/ }).default("http://localhost:11434").describe(
    'The model server, e.g. `"http://gpu-box.lan:11434"` (there: `OLLAMA_HOST=0.0.0.0 ollama serve`).',
  ),
  model: z.string().min(1).default("qwen2.5:14b").describe("The main model (tool-capable)."),
  api_key: z.string().default("").describe(
    "Bearer token for OpenAI-compatible servers that need one.",
  ),
  temperature: z.number().min(0).max(2).default(0.3).describe("Sampling temperature."),
  max_tool_iterations: positiveInt.max(100).default(10).describe(
    "Tool rounds per message before Radar stops with a message.",
  ),
  tool_budget_tokens: positiveInt.max(bounds.maxConfigTokens).default(1200).describe(
    "Schema tokens of the tools offered on one request: every tool while all fit, else the most relevant ones plus `find_tools`.",
  ),
  connect_timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(10)
    .describe("Seconds to connect to the model server."),
  response_timeout_seconds: z.number().positive().max(86_400).default(300).describe(
    "The whole exchange's upper bound: a cold model can take minutes to load and answer.",
  ),
  first_byte_timeout_seconds: z.number().positive().max(86_400).default(300).describe(
    "Until the server's first byte (headers): a `stream: false` answer comes only when it is done.",
  ),
  idle_timeout_seconds: z.number().positive().max(3600).default(30).describe(
    "Longest silence once the server has started answering.",
  ),
  max_response_mib: z.number().positive().max(1024).default(16).describe(
    "Larger answers are cut off (a runaway or hostile server cannot fill the memory).",
  ),
  max_retry_wait_seconds: z.number().min(0).max(3600).default(60).describe(
    "The most Radar waits between retries of one request, `Retry-After` included.",
  ),
  retries: z.number().int().min(0).max(10).default(3).describe(
    "Retries for unreachable, busy (503) and crashed (500) servers, with backoff.",
  ),
  max_context_tokens: z.number().int().min(0).max(bounds.maxConfigTokens).default(0).describe(
    "Upper bound for Ollama's `num_ctx`; 0: the model's own context length.",
  ),
  keep_alive: z.string().default("30m").describe("How long Ollama keeps the model loaded."),
  embedding_model: z.string().default("").describe(
    'Embedding model for tool ranking and semantic memory, e.g. `"nomic-embed-text"`; empty: keyword search only.',
  ),
  embedding_base_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default("")
    .describe(
      "The embedding model's server when not `llm.base_url` (ending in /v1: OpenAI-compatible /v1/embeddings).",
    ),
  models: z.object({
    main: modelRole.prefault({}).describe(
      "Overrides `base_url`/`model` above when its model is set.",
    ),
    fast: modelRole.prefault({}).describe(
      'Heartbeat triage, conversation summaries and money categories, e.g. model `"qwen2.5:3b"`.',
    ),
    vision: modelRole.prefault({}).describe(
      'Image-only PDF pages, comic covers and the browser\'s `look`, e.g. model `"qwen2.5vl:7b"`.',
    ),
    fallback: modelRole.prefault({}).describe(
      "Used while the main server is unreachable (refused, timed out, 5xx).",
    ),
  }).prefault({}).describe(
    "Model roles; empty fields inherit the values above (the `api_key` only with the `base_url`).",
  ),
}).describe(
  "Which model server and model, and how to talk to it. `ollama:` is accepted as an alias.",
);

/** `heartbeat:` the schedule of proactive checks. */
const heartbeatSection = z.object({
  enabled: z.boolean().default(true).describe("Run heartbeats under `radar serve`."),
  interval_minutes: positiveInt.max(1440).default(15).describe("Minutes between heartbeats."),
  quiet_hours: z.object({
    start: clockTime.default("23:00").describe("Start, HH:MM local time."),
    end: clockTime.default("07:00").describe("End, HH:MM local time."),
  }).nullable().prefault({}).describe(
    "Local time; may span midnight; `null` disables. Heartbeat notifications below `high` priority are held back.",
  ),
  always_call_llm: z.boolean().default(false).describe(
    "Call the model on every tick even when nothing changed.",
  ),
  history_messages: z.number().int().min(0).max(200).default(12).describe(
    "Recent heartbeat messages replayed as context.",
  ),
  max_events_per_tick: positiveInt.max(500).default(40).describe(
    "Events one heartbeat takes from the queue.",
  ),
  personality: z.string().default("").describe(
    "The personality heartbeats run with; empty: the active one.",
  ),
}).describe("The schedule of proactive checks.");

/** `notifications:` where `notify` sends. */
const notificationsSection = z.object({
  ntfy: z.object({
    url: z.url({ protocol: /^https?$/ }).default("https://ntfy.sh").describe(
      'The ntfy server, or your own, e.g. `"https://ntfy.example.com"`.',
    ),
    topic: z.string().default("").describe("The topic; empty: notifications are not configured."),
    token: z.string().default("").describe("Access token for protected topics."),
  }).prefault({}).describe("An ntfy topic."),
  channels: notificationTargets,
}).describe("Where `notify` and approval notices are sent.");

/** `memory:` how much history and which notes reach the prompt. */
const memorySection = z.object({
  max_conversation_context: z.number().int().min(0).max(200).default(10).describe(
    "Recent exchanges (user + assistant turns) replayed into a conversation's context.",
  ),
  max_personality_notes: z.number().int().min(0).max(50).default(5).describe(
    "Newest personality notes put into the system prompt.",
  ),
  conversation_summaries: z.object({
    enabled: z.boolean().default(true).describe("Summarize quiet conversations."),
    quiet_minutes: positiveInt.max(10_080).default(30).describe(
      "Minutes without a message before a conversation is summarized.",
    ),
    min_messages: z.number().int().min(2).max(1000).default(4).describe(
      "User and assistant messages a conversation needs to be worth a summary.",
    ),
  }).prefault({}).describe(
    "Quiet conversations summarized into memory on an idle tick (`recall` finds them by keywords and meaning).",
  ),
}).describe("How much history and which notes reach the prompt.");

/** One file watcher. */
const watcherEntry = z.object({
  path: z.string().min(1).describe('The folder, e.g. `"~/Downloads"`.'),
  pattern: z.string().default("*").describe('File names to watch (glob), e.g. `"*.pdf"`.'),
  action: z.string().default("file_added").describe(
    'The name the heartbeat sees for a new file, e.g. `"new_pdf_detected"` or `"new_comic_detected"`.',
  ),
  recursive: z.boolean().default(false).describe("Watch sub-folders too."),
  urgent: z.boolean().default(false).describe(
    "New files wake the heartbeat (and may notify) during quiet hours.",
  ),
});

/** `tools:` per-tool settings and safety rails. */
const toolsSection = z.object({
  max_result_chars: positiveInt.max(bounds.maxConfigChars).default(8000).describe(
    "Longer tool results are cut, with a note.",
  ),
  audit_retention_days: positiveInt.max(bounds.maxRetentionDays).default(90).describe(
    "Days the tool audit trail (`radar log tools`) is kept.",
  ),
  exec: z.object({
    enabled: z.boolean().default(true).describe("Offer the `exec` tool."),
    mode: z.enum(["safe_only", "block_dangerous", "allow_all"]).default("block_dangerous")
      .describe(
        "What runs without asking (the sandbox, not this, is the security boundary): `safe_only` only plainly read-only commands; `block_dangerous` anything, but writing `writable_roots` needs a yes in chat (unattended runs see them read-only); `allow_all` `writable_roots` writable without asking, also unattended.",
      ),
    timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(30).describe(
      "Also the CPU-seconds limit; the whole process tree is killed.",
    ),
    sandbox: z.boolean().default(true).describe(
      "bubblewrap (Linux) / sandbox-exec (macOS) wherever available. Without one (or `false`) every command needs a yes in chat and unattended runs never `exec`.",
    ),
    writable_roots: z.array(z.string()).default([]).describe(
      'Folders `exec` may write besides the scratch folder, e.g. `["~/work"]`; written only after a yes in chat (`mode: allow_all`: always).',
    ),
    scratch_dir: z.string().default("").describe(
      "Empty: `$XDG_STATE_HOME/radar/scratch` (`~/.local/state/radar/scratch`), created 0700.",
    ),
    allow_network: z.boolean().default(false).describe(
      "Network inside the exec sandbox (also reaches this machine's loopback services).",
    ),
    max_output_chars: positiveInt.max(bounds.maxConfigChars).default(4000).describe(
      "Characters of a command's output returned.",
    ),
    max_processes: positiveInt.max(bounds.maxProcesses).default(256).describe(
      "RLIMIT_NPROC inside the sandbox (fork bombs stop here); for root, a pids cgroup of this size.",
    ),
    max_memory_mb: z.number().int().min(0).max(bounds.maxMemoryMb).default(1024).describe(
      "RLIMIT_DATA per process inside the sandbox; 0: no limit.",
    ),
  }).prefault({}).describe("The `exec` tool and its OS sandbox."),
  files: z.object({
    max_read_bytes: positiveInt.max(bounds.maxConfigBytes).default(200_000).describe(
      "The most `read_file` reads of one file.",
    ),
    blocked_paths: z.array(z.string()).default([]).describe(
      "Extra paths the file tools refuse and the exec sandbox hides.",
    ),
    allowed_roots: z.array(z.string()).default([]).describe(
      "When non-empty, file tools only work under these folders.",
    ),
    writable_roots: z.array(z.string()).default([]).describe(
      "`write_file` and `move_file` change files here (and in the scratch folder) without asking; elsewhere a yes (chat), a grant or a pending approval.",
    ),
    journal_days: positiveInt.max(bounds.maxRetentionDays).default(30).describe(
      "Days the action journal keeps file changes (and copies of replaced files) for `radar undo`.",
    ),
    journal_max_mib: z.number().int().min(1).max(1_048_576).default(1024).describe(
      "MiB the action journal may take, its saved originals included; past it the oldest originals are dropped first (those changes can then no longer be undone), then the oldest entries.",
    ),
  }).prefault({}).describe("The file tools."),
  comics: comicsToolSection.prefault({}),
  pdf: z.object({
    first_pages: z.number().int().min(0).max(bounds.maxConfigPages).default(2).describe(
      "Pages read from the start of a PDF.",
    ),
    last_pages: z.number().int().min(0).max(bounds.maxConfigPages).default(1).describe(
      "Pages read from its end.",
    ),
    timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(20).describe(
      "A PDF taking longer is stopped (its reader process is killed).",
    ),
  }).prefault({}).describe("The `pdf_extract` tool."),
  web_search: z.object({
    provider: z.enum(["", "duckduckgo", "searxng", "brave"]).default("duckduckgo").describe(
      '`duckduckgo` (no key; also what `""` means), `searxng` (needs `url`) or `brave` (needs a key).',
    ),
    url: z.string().default("").describe(
      'SearXNG\'s base URL, e.g. `"http://localhost:8888"`; for the others an optional own endpoint.',
    ),
    api_key: z.string().default("").describe("Brave's API key."),
    api_key_cmd: z.string().default("").describe(
      'Or a command printing it, e.g. `"pass show api/brave-search"`.',
    ),
    max_results: positiveInt.max(20).default(5).describe("Results per search."),
  }).prefault({}).describe("The `web_search` tool."),
  weather: z.object({
    units: z.enum(["metric", "imperial"]).default("metric").describe("Units of the answers."),
    forecast_url: z.string().default("").describe(
      "Own Open-Meteo server (self-hosted); empty: `https://api.open-meteo.com`.",
    ),
    geocoding_url: z.string().default("").describe(
      "Empty: `https://geocoding-api.open-meteo.com`.",
    ),
  }).prefault({}).describe("The `weather` tool (Open-Meteo, no key)."),
  fetch_url: z.object({
    max_chars: positiveInt.max(bounds.maxConfigChars).default(8000).describe(
      "Page text returned per call.",
    ),
    timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(20).describe(
      "Seconds for one fetch.",
    ),
    allow_private: z.boolean().default(false).describe(
      "Allow private, loopback and link-local addresses (also for URL monitors).",
    ),
  }).prefault({}).describe("The `fetch_url` tool and URL monitors."),
}).describe("Per-tool settings and safety rails.");

/** The shortest `web.auth_token` accepted: a guessable token would guard the dashboard. */
export const minAuthTokenLength = 24;

/** `web:` the dashboard. */
const webSection = z.object({
  host: z.string().default("127.0.0.1").describe(
    "The address the dashboard listens on; any other than loopback requires `auth_token`.",
  ),
  port: z.number().int().min(0).max(65535).default(8420).describe("The dashboard's port."),
  auth_token: z.string().refine(
    (token) => token === "" || token.length >= minAuthTokenLength,
    `expected at least ${minAuthTokenLength} characters (or "" for a generated token)`,
  ).default("").describe(
    "The dashboard token (at least 24 characters); required when `host` is not loopback. Empty: Radar generates one in its data folder (the dashboard needs a login on loopback too; `radar dashboard` logs you in).",
  ),
  public_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default("").describe(
    'Where your phone reaches the dashboard (a VPN or reverse-proxy address such as `"https://radar.tailnet.ts.net"`); approval buttons in notifications point there. Empty: `http://HOST:PORT` from above.',
  ),
}).describe("The dashboard.");

/** `plugins:` the plugin host and LLM-created tools. */
const pluginsSection = z.object({
  enabled: z.boolean().default(true).describe("Load approved, enabled plugins."),
  allow_llm_generated: z.boolean().default(false).describe(
    "Offer the `create_tool` tool: the model writes sandboxed tools, which wait for review.",
  ),
  auto_approve_if_tests_pass: z.boolean().default(false).describe(
    "A created tool whose tests pass is approved after your yes in chat to its description (sandbox-trust plugins only; unattended, it waits for review).",
  ),
  max_debug_attempts: z.number().int().min(0).max(10).default(3).describe(
    "Failed `create_tool` attempts for one tool before the model is told to stop.",
  ),
  call_timeout_seconds: z.number().positive().max(bounds.maxTimeoutSeconds).default(10).describe(
    "Seconds for one plugin call.",
  ),
  memory_mb: positiveInt.max(bounds.maxMemoryMb).default(128).describe(
    "Memory limit of a plugin's host process, in MB.",
  ),
  idle_seconds: positiveInt.max(bounds.maxTimeoutSeconds).default(300).describe(
    "An idle plugin host is stopped (and started again on the next call).",
  ),
  max_result_chars: positiveInt.max(bounds.maxConfigChars).default(16000).describe(
    "A plugin result is cut to this many characters.",
  ),
  public_results: z.array(z.string().min(1).max(100)).max(100).default([]).describe(
    "Plugins whose tool results are public data (the web's), not yours. Default: private.",
  ),
}).describe("The plugin host and model-created tools.");

/** A `hooks.rules` entry (type-specific checks in `superRefine`). */
const hookRule = z.object({
  name: z.string().min(1).max(80).describe("The rule's name (in `radar hooks list` and logs)."),
  type: z.enum(Object.keys(hookRuleTypes) as [keyof typeof hookRuleTypes]).describe(
    "What the rule does (see docs/extending.md, Hooks).",
  ),
  hook_point: z.enum(hookPoints).optional().describe(
    "Where it acts; absent: the type's first point.",
  ),
  patterns: z.array(z.string().min(1).max(500)).max(100).default([]).describe(
    "Case-insensitive substrings; regular expressions (RE2) for `redact_response`.",
  ),
  paths: z.array(z.string().min(1)).max(100).default([]).describe(
    "Folders for `block_path_pattern` (`~` allowed).",
  ),
  tools: z.array(z.string().min(1)).max(100).default([]).describe(
    "The tools the rule is about.",
  ),
  message: z.string().max(300).default("").describe("What a refusal says."),
  replacement: z.string().max(200).default("[redacted]").describe(
    "What `redact_response` puts in place of a match (taken literally).",
  ),
  start_hour: z.number().int().min(0).max(23).optional().describe(
    "`time_restrict`: the first hour (radar.timezone).",
  ),
  end_hour: z.number().int().min(0).max(23).optional().describe(
    "`time_restrict`: the hour it ends.",
  ),
  log_level: z.enum(["debug", "info", "warn"]).default("info").describe(
    "The level of the logging rules' lines.",
  ),
  priority: z.number().int().min(0).max(1000).default(50).describe(
    "Lower runs first (plugin hooks run at 100).",
  ),
  enabled: z.boolean().default(true).describe("Off: the rule is kept but not used."),
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
  enabled: z.boolean().default(true).describe(
    "Use the rules below (plugin hooks are not affected).",
  ),
  rules: z.array(hookRule).max(200).default([]).describe(
    "Rules at the hook points: policy conveniences, not a security boundary.",
  ),
}).describe("Config rules at the hook points (plugins add theirs through the plugin host).");

/** `skills:` Agent Skills folders (`<data>/skills/` and the bundled ones are always searched). */
const skillsSection = z.object({
  enabled: z.boolean().default(true).describe(
    "List skills in the system prompt and offer `use_skill`.",
  ),
  dirs: z.array(z.string().min(1)).max(50).default([]).describe(
    "More folders of Agent Skills (each holding SKILL.md folders).",
  ),
}).describe("Agent Skills folders (`<data>/skills/` and the bundled ones are always searched).");

/**
 * One `grants:` rule: a standing grant in radar.yaml (a tool and glob patterns for its arguments;
 * paths with `~`). Checked like every grant: never over protected places or Radar's own state.
 */
const grantRule = z.object({
  tool: z.string().min(1).max(100).describe("The tool the grant covers."),
  arguments: z.record(z.string().min(1).max(100), z.string().min(1).max(1000)).describe(
    'A glob pattern per argument, e.g. `{ source: "~/Downloads/*.pdf", destination: "~/Documents/Filed/**" }`.',
  ),
  note: z.string().max(300).default("").describe("Why the grant exists."),
  private_data_to: z.array(
    z.string().refine((text) => normalizeOrigin(text) !== undefined, {
      message: "expected an origin: scheme, host and port, e.g. https://mycalendar.example",
    }),
  ).max(20).default([]).describe(
    "Origins (scheme, host, port; or mcp:NAME, plugin:NAME) a run that read your private data " +
      "may send it to with this grant. Empty: the grant never lets private data leave.",
  ),
});

/** `approvals:` what a run without a person does with an action that needs a yes. */
const approvalsSection = z.object({
  expire_hours: z.number().positive().max(24 * 30).default(24).describe(
    "How long a pending approval waits for an answer (then it expires and nothing happens).",
  ),
  notify: z.boolean().default(true).describe(
    "Push each pending approval to ntfy with Approve/Deny buttons (needs `notifications.ntfy`).",
  ),
}).describe(
  "What a heartbeat, a task or `radar ask` from a script does with an action that needs your yes: it becomes a pending approval.",
);

/** The whole configuration. */
export const configSchema = z.object({
  radar: radarSection.prefault({}),
  llm: llmSection.prefault({}),
  heartbeat: heartbeatSection.prefault({}),
  notifications: notificationsSection.prefault({}),
  memory: memorySection.prefault({}),
  watchers: z.array(watcherEntry).default([]).describe(
    "Folders whose new files become heartbeat events.",
  ),
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
  grants: z.array(grantRule).max(200).default([]).describe(
    'Standing grants: calls these match need no yes, also unattended (`radar grants` lists them with the ones "Always allow…" made). Never over protected places or Radar\'s own folders.',
  ),
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
