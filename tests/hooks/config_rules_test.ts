import assert from "node:assert/strict";
import { configSchema } from "../../src/config/schema.ts";
import { loadConfig } from "../../src/config/loader.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { Hooks } from "../../src/core/hooks.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { registerConfigRules } from "../../src/hooks/config_rules.ts";
import { silentLogger } from "../../src/core/ports.ts";

function hooksFor(rules: unknown[], hour = 12, logger = silentLogger): Hooks {
  const config = configSchema.parse({ hooks: { rules } });
  const hooks = new Hooks();
  registerConfigRules(hooks, config, {
    clock: new ManualClock(new Date("2026-11-23T12:00:00Z")),
    logger,
    home: "/home/u",
    cwd: "/home/u/work",
    hourOf: () => hour,
  });
  return hooks;
}

const call = (toolName: string, args: unknown) => ({ toolName, arguments: args });

Deno.test("block_command_pattern, block_path_pattern and block_tool block at pre_tool_call", async () => {
  const hooks = hooksFor([
    { name: "no_rm", type: "block_command_pattern", patterns: ["rm -rf"], message: "no rm" },
    { name: "no_secrets", type: "block_path_pattern", paths: ["~/private"] },
    { name: "no_web", type: "block_tool", tools: ["web_search"] },
  ]);
  assert.deepEqual(await hooks.block("pre_tool_call", call("exec", { command: "RM  -RF /" })), {
    blocked: true,
    message: "no rm",
  });
  assert.equal(await hooks.block("pre_tool_call", call("exec", { command: "ls" })), undefined);
  const path = await hooks.block("pre_tool_call", call("read_file", { path: "../private/a.txt" }));
  assert.match(path!.message, /\/home\/u\/private is off limits/);
  assert.equal(
    await hooks.block("pre_tool_call", call("read_file", { path: "/home/u/private2/a" })),
    undefined,
    "a sibling with the same prefix is not under the folder",
  );
  assert.match(
    (await hooks.block("pre_tool_call", call("web_search", { query: "x" })))!.message,
    /web_search is switched off/,
  );
});

Deno.test("time_restrict, allowlist and denylist filter the offered tools", async () => {
  const rules = [
    { name: "night", type: "time_restrict", start_hour: 22, end_hour: 8, tools: ["exec"] },
    { name: "deny", type: "denylist", tools: ["weather"] },
  ];
  const offered = ["exec", "weather", "recall"];
  assert.deepEqual(await hooksFor(rules, 23).filterTools(offered, "chat"), ["recall"]);
  assert.deepEqual(await hooksFor(rules, 12).filterTools(offered, "chat"), ["exec", "recall"]);
  const allow = hooksFor([{ name: "only", type: "allowlist", tools: ["recall", "notify"] }]);
  assert.deepEqual(await allow.filterTools(offered, "chat"), ["recall"]);
  const atCall = hooksFor([{
    name: "night",
    type: "time_restrict",
    hook_point: "pre_tool_call",
    start_hour: 22,
    end_hour: 8,
    tools: ["exec"],
  }], 3);
  assert.ok((await atCall.block("pre_tool_call", call("exec", {})))?.blocked);
});

Deno.test("message, response, memory and log rules act at their points", async () => {
  const logged: string[] = [];
  const logger = { ...silentLogger, info: (message: string) => void logged.push(message) };
  const hooks = hooksFor(
    [
      { name: "no_passwords", type: "block_message_pattern", patterns: ["password:"] },
      { name: "keys", type: "redact_response", patterns: ["sk-[a-z0-9]{8,}"] },
      { name: "audit", type: "log_agent" },
      { name: "no_cards", type: "block_memory_pattern", patterns: ["card number"] },
      { name: "hide_health", type: "filter_memory_pattern", patterns: ["doctor"] },
      { name: "calls", type: "log" },
      { name: "beats", type: "log_heartbeat" },
    ],
    12,
    logger,
  );
  const run = { conversationId: 1, kind: "chat" };
  assert.ok(
    (await hooks.block("pre_agent_run", { ...run, userMessage: "my Password: x" }))?.blocked,
  );
  assert.equal(
    await hooks.transformAnswer({ ...run, userMessage: "", response: "key sk-abcdef123456 ok" }),
    "key [redacted] ok",
  );
  assert.ok(
    (await hooks.block("pre_memory_store", { content: "Card number 4111", category: "x" }))
      ?.blocked,
  );
  const hits = [{ id: 1, category: "a", content: "Doctor on Monday" }, {
    id: 2,
    category: "a",
    content: "Likes tea",
  }];
  assert.deepEqual((await hooks.filterMemories("q", hits)).map((hit) => hit.id), [2]);
  await hooks.observeToolCall({ toolName: "exec", arguments: {}, result: "", success: true });
  await hooks.observeHeartbeat({ eventCount: 2, success: true });
  assert.deepEqual(logged, [
    "hook audit: agent run",
    "hook calls: tool call",
    "hook beats: heartbeat",
  ]);
});

Deno.test("hooks.enabled false registers nothing; disabled rules are skipped", () => {
  const config = configSchema.parse({
    hooks: { rules: [{ name: "x", type: "block_tool", tools: ["exec"], enabled: false }] },
  });
  const hooks = new Hooks();
  const options = { clock: new ManualClock(new Date()), logger: silentLogger };
  assert.equal(registerConfigRules(hooks, config, options), 0);
  config.hooks.rules[0].enabled = true;
  config.hooks.enabled = false;
  assert.equal(registerConfigRules(hooks, config, options), 0);
  assert.equal(hooks.list().length, 0);
});

function configError(yaml: string): string {
  try {
    loadConfig({
      explicitPath: "/cfg/radar.yaml",
      env: {},
      cwd: "/",
      readTextFile: () => yaml,
    });
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  throw new Error("expected a config error");
}

Deno.test("a bad rule is one line naming the file, the rule index and the problem", () => {
  const badRegex = configError(
    "hooks:\n  rules:\n    - name: a\n      type: log\n    - name: b\n      type: redact_response\n      patterns: ['(']\n",
  );
  assert.match(
    badRegex,
    /\/cfg\/radar\.yaml.*hooks\.rules\[1\]\.patterns\[0\]: invalid regular expression/,
  );
  assert.ok(!badRegex.includes("\n"));
  // Patterns run on RE2 (linear time): what it cannot run is refused at load, in one line.
  for (const [pattern, problem] of [["(a)\\1", "backreferences"], ["a(?=b)", "lookahead"]]) {
    assert.match(
      configError(
        `hooks:\n  rules:\n    - name: b\n      type: redact_response\n      patterns: ['${pattern}']\n`,
      ),
      new RegExp(`hooks\\.rules\\[0\\]\\.patterns\\[0\\]: ${problem}.* not supported`),
    );
  }
  assert.match(
    configError("hooks:\n  rules:\n    - name: a\n      type: block_tool\n"),
    /hooks\.rules\[0\]\.tools: a block_tool rule needs tools/,
  );
  assert.match(
    configError(
      "hooks:\n  rules:\n    - name: a\n      type: log\n      hook_point: pre_heartbeat\n",
    ),
    /hooks\.rules\[0\]\.hook_point: a log rule acts at post_tool_call/,
  );
  assert.match(
    configError("hooks:\n  rules:\n    - name: a\n      type: nope\n"),
    /hooks\.rules\[0\]\.type: expected one of "block_command_pattern"/,
  );
});
