/**
 * `hooks.rules` from radar.yaml as hook registrations (priority 50 unless set). Patterns are
 * case-insensitive substrings (regular expressions for redact_response, checked when the config
 * loads). These rules are policy conveniences, not a security boundary: exec's boundary is its OS
 * sandbox and the file tools' is the path guard. Block rules are fail-closed: if a rule's own
 * check throws, the action is blocked.
 */
import type { RadarConfig } from "../config/schema.ts";
import {
  type HookHandler,
  type HookPoint,
  type HookRegistration,
  hookRuleTypes,
  type Hooks,
  type HookVerdict,
} from "../core/hooks.ts";
import { resolve } from "node:path";
import { linearReplacer } from "./linear_regex.ts";
import type { Clock, Logger } from "../core/ports.ts";

/** One rule as configured. */
type HookRule = RadarConfig["hooks"]["rules"][number];

/** What rules need from the world. */
export interface ConfigRuleOptions {
  clock: Clock;
  logger: Logger;
  home?: string;
  cwd?: string;
  /** Hour of day (0–23) in the user's zone (default: the clock's local hour). */
  hourOf?: (date: Date) => number;
}

/** The source name config rules register under. */
const configRuleSource = "config";

/** Tools whose `path` argument block_path_pattern checks. */
const fileTools = ["read_file", "write_file", "list_directory", "pdf_extract"];

/** Registers every enabled rule of `hooks.rules` (none when `hooks.enabled` is false). */
export function registerConfigRules(
  hooks: Hooks,
  config: Pick<RadarConfig, "hooks">,
  options: ConfigRuleOptions,
): number {
  hooks.unregisterSource(configRuleSource);
  if (!config.hooks.enabled) return 0;
  let count = 0;
  for (const rule of config.hooks.rules) {
    if (!rule.enabled) continue;
    hooks.register(ruleRegistration(rule, options));
    count++;
  }
  return count;
}

function includesAny(text: string, patterns: readonly string[]): string | undefined {
  const flat = text.toLowerCase().replace(/\s+/g, " ");
  return patterns.find((pattern) => flat.includes(pattern.toLowerCase()));
}

function blocked(rule: HookRule, fallback: string): HookVerdict {
  return { blocked: true, message: rule.message || `${fallback} (hook rule ${rule.name})` };
}

function inWindow(hour: number, start: number, end: number): boolean {
  return start <= end ? hour >= start && hour < end : hour >= start || hour < end;
}

function argumentText(value: unknown, key: string): string | undefined {
  if (!value || typeof value !== "object") return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : undefined;
}

/** Builds the registration of one rule. */
function ruleRegistration(rule: HookRule, options: ConfigRuleOptions): HookRegistration {
  const point: HookPoint = rule.hook_point ?? hookRuleTypes[rule.type][0];
  const reg = <P extends HookPoint>(
    at: P,
    handler: HookHandler<P>,
    failClosed = false,
  ): HookRegistration => ({
    name: rule.name,
    priority: rule.priority,
    source: configRuleSource,
    description: describeRule(rule),
    point: at,
    failClosed,
    handler: handler as HookHandler<HookPoint>,
  });
  const tools = new Set(rule.tools);
  const hour = () => (options.hourOf ?? ((date: Date) => date.getHours()))(options.clock.now());
  const restricted = () => inWindow(hour(), rule.start_hour ?? 0, rule.end_hour ?? 0);
  const blockOnPattern = (text: string, fallback: string) =>
    includesAny(text, rule.patterns) === undefined ? undefined : blocked(rule, fallback);
  const log = (message: string, fields: Record<string, unknown>) =>
    options.logger[rule.log_level](`hook ${rule.name}: ${message}`, fields);
  switch (rule.type) {
    case "block_command_pattern": {
      const commandTools = tools.size ? tools : new Set(["exec"]);
      return reg("pre_tool_call", ({ toolName, arguments: args }) => {
        if (!commandTools.has(toolName)) return undefined;
        const command = argumentText(args, "command") ?? JSON.stringify(args);
        const hit = includesAny(command, rule.patterns);
        return hit === undefined
          ? undefined
          : blocked(rule, `Blocked: the command contains "${hit}"`);
      }, true);
    }
    case "block_path_pattern": {
      const pathTools = tools.size ? tools : new Set(fileTools);
      const folders = rule.paths.map((path) => absolute(path, options));
      return reg("pre_tool_call", ({ toolName, arguments: args }) => {
        const path = argumentText(args, "path");
        if (!pathTools.has(toolName) || path === undefined) return undefined;
        const target = absolute(path, options);
        const folder = folders.find((folder) =>
          target === folder || target.startsWith(folder.endsWith("/") ? folder : `${folder}/`)
        );
        return folder === undefined ? undefined : blocked(rule, `Blocked: ${folder} is off limits`);
      }, true);
    }
    case "block_tool":
      return reg(
        "pre_tool_call",
        ({ toolName }) =>
          tools.has(toolName) ? blocked(rule, `Blocked: ${toolName} is switched off`) : undefined,
        true,
      );
    case "time_restrict":
      if (point === "pre_tool_call") {
        return reg(
          "pre_tool_call",
          ({ toolName }) =>
            tools.has(toolName) && restricted()
              ? blocked(rule, `Blocked: ${toolName} is not available at this hour`)
              : undefined,
          true,
        );
      }
      return reg(
        "filter_tools",
        ({ tools: offered }) =>
          restricted() ? offered.filter((name) => !tools.has(name)) : undefined,
      );
    case "allowlist":
      return reg("filter_tools", ({ tools: offered }) => offered.filter((name) => tools.has(name)));
    case "denylist":
      return reg(
        "filter_tools",
        ({ tools: offered }) => offered.filter((name) => !tools.has(name)),
      );
    case "log":
      return reg("post_tool_call", ({ toolName, success, conversationId }) => {
        if (!tools.size || tools.has(toolName)) {
          log("tool call", { tool: toolName, success, conversation: conversationId });
        }
        return undefined;
      });
    case "block_message_pattern":
      return reg(
        "pre_agent_run",
        ({ userMessage }) => blockOnPattern(userMessage, "This message was blocked by a hook rule"),
        true,
      );
    case "redact_response": {
      // Linear time (RE2), compiled on the first answer. Fail-closed: should it ever fail, the
      // answer is withheld, never shown unredacted.
      let replacer: Promise<(text: string) => string> | undefined;
      return reg("post_agent_run", async ({ response }) => {
        replacer ??= linearReplacer(rule.patterns, rule.replacement);
        return (await replacer)(response);
      }, true);
    }
    case "log_agent":
      return reg("post_agent_run", ({ conversationId, kind, response }) => {
        log("agent run", { conversation: conversationId, kind, answer_chars: response.length });
        return undefined;
      });
    case "block_memory_pattern":
      return reg(
        "pre_memory_store",
        ({ content }) => blockOnPattern(content, "Not stored: this memory matches a hook rule"),
        true,
      );
    case "filter_memory_pattern":
      return reg(
        "post_memory_search",
        ({ results }) =>
          results.filter((hit) => includesAny(hit.content, rule.patterns) === undefined),
      );
    case "log_heartbeat":
      if (point === "pre_heartbeat") {
        return reg("pre_heartbeat", ({ eventCount }) => {
          log("heartbeat starting", { events: eventCount });
          return undefined;
        });
      }
      return reg(
        "post_heartbeat",
        ({ eventCount, success, error }) =>
          log("heartbeat", { events: eventCount, success, error }),
      );
  }
}

function absolute(path: string, options: ConfigRuleOptions): string {
  const home = options.home ?? "";
  const expanded = path === "~" ? home : path.startsWith("~/") ? `${home}${path.slice(1)}` : path;
  return resolve(options.cwd ?? "/", expanded);
}

/** A one-line description of a rule (`radar hooks list`). */
function describeRule(rule: HookRule): string {
  const parts: string[] = [rule.type];
  if (rule.tools.length) parts.push(`tools ${rule.tools.join(", ")}`);
  if (rule.patterns.length) {
    parts.push(`patterns ${rule.patterns.map((p) => JSON.stringify(p)).join(", ")}`);
  }
  if (rule.paths.length) parts.push(`paths ${rule.paths.join(", ")}`);
  if (rule.start_hour !== undefined) parts.push(`${rule.start_hour}:00–${rule.end_hour}:00`);
  return parts.join("; ");
}
