import assert from "node:assert/strict";
import { loadConfig, type LoadOptions, parseYaml } from "../../src/config/loader.ts";
import { ConfigError } from "../../src/core/errors.ts";

function options(files: Record<string, string>, extra: Partial<LoadOptions> = {}): LoadOptions {
  return {
    env: { HOME: "/home/ada" },
    cwd: "/work",
    readTextFile: (path) => files[path],
    ...extra,
  };
}

Deno.test("loadConfig() runs on embedded defaults with no file at all", () => {
  const loaded = loadConfig(options({}));
  assert.equal(loaded.path, undefined);
  assert.equal(loaded.config.llm.base_url, "http://localhost:11434");
  assert.equal(loaded.config.llm.provider, "ollama");
  assert.equal(loaded.config.heartbeat.interval_minutes, 15);
  assert.equal(loaded.dataDir, "/home/ada/.local/share/radar");
  assert.deepEqual(loaded.warnings, []);
});

Deno.test("loadConfig() looks in $XDG_CONFIG_HOME/radar/radar.yaml, never in ./radar.yaml", () => {
  const xdg = "/home/ada/.config/radar/radar.yaml";
  assert.equal(loadConfig(options({ [xdg]: "radar: {name: X}" })).path, xdg);
  assert.equal(loadConfig(options({ [xdg]: "{}", "/work/radar.yaml": "{}" })).path, xdg);
  assert.equal(loadConfig(options({ "/work/radar.yaml": "{}" })).path, undefined);
  const custom = loadConfig(options({ "/cfg/r.yaml": "{}" }, {
    env: { HOME: "/home/ada", XDG_CONFIG_HOME: "/cfg", XDG_DATA_HOME: "/data" },
  }));
  assert.equal(custom.path, undefined);
  assert.equal(custom.dataDir, "/data/radar");
});

Deno.test("loadConfig() honours --config, then RADAR_CONFIG, and fails clearly when missing", () => {
  const files = { "/etc/a.yaml": "radar: {name: A}", "/etc/b.yaml": "radar: {name: B}" };
  assert.equal(loadConfig(options(files, { explicitPath: "/etc/a.yaml" })).config.radar.name, "A");
  assert.equal(
    loadConfig(options(files, { env: { HOME: "/h", RADAR_CONFIG: "/etc/b.yaml" } })).config.radar
      .name,
    "B",
  );
  assert.throws(
    () => loadConfig(options(files, { explicitPath: "missing.yaml" })),
    (error: unknown) =>
      error instanceof ConfigError && error.exitCode === 2 &&
      error.message === "Cannot read config /work/missing.yaml: file not found",
  );
});

Deno.test("loadConfig() accepts the spec's ollama: section as an alias of llm:", () => {
  const loaded = loadConfig(options({
    "/home/ada/.config/radar/radar.yaml":
      'ollama:\n  base_url: "http://gpu-box:11434/v1"\n  model: "qwen2.5:14b"\n',
  }));
  assert.equal(loaded.config.llm.base_url, "http://gpu-box:11434/v1");
  assert.equal(loaded.config.llm.provider, "openai", "a /v1 base_url implies openai");
});

Deno.test("loadConfig() applies environment overrides over the file", () => {
  const loaded = loadConfig(
    options({ "/home/ada/.config/radar/radar.yaml": "llm: {model: a}\nweb: {port: 1}" }, {
      env: {
        HOME: "/h",
        RADAR_LLM_MODEL: "llama3.1:8b",
        RADAR_LLM_BASE_URL: "http://10.0.0.5:11434",
        RADAR_NTFY_TOPIC: "mine",
        RADAR_WEB_AUTH_TOKEN: "s3cret-token-0123456789ab",
        RADAR_WEB_PORT: "9000",
        RADAR_DATA_DIR: "rel/data",
      },
    }),
  );
  assert.equal(loaded.config.llm.model, "llama3.1:8b");
  assert.equal(loaded.config.llm.base_url, "http://10.0.0.5:11434");
  assert.equal(loaded.config.notifications.ntfy.topic, "mine");
  assert.equal(loaded.config.web.auth_token, "s3cret-token-0123456789ab");
  assert.equal(loaded.config.web.port, 9000);
  assert.equal(loaded.dataDir, "/work/rel/data");
});

Deno.test("loadConfig() names file, key path, expectation and found value on a bad value", () => {
  const cases: Array<[string, string]> = [
    ["llm:\n  temperature: hot\n", 'llm.temperature: expected number, found "hot"'],
    [
      "heartbeat:\n  interval_minutes: 0\n",
      "heartbeat.interval_minutes: expected at least 0, found number 0",
    ],
    [
      "llm:\n  provider: claude\n",
      'llm.provider: expected one of "ollama", "openai", "", found "claude"',
    ],
    ["watchers:\n  - pattern: '*.pdf'\n", "watchers[0].path: expected string, found nothing"],
    [
      "heartbeat:\n  quiet_hours: {start: '25:00'}\n",
      'heartbeat.quiet_hours.start: expected HH:MM (24-hour), found "25:00"',
    ],
    ["- just\n- a list\n", "expected a mapping of sections, found a list"],
  ];
  for (const [text, expected] of cases) {
    assert.throws(
      () => loadConfig(options({ "/home/ada/.config/radar/radar.yaml": text })),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.exitCode, 2);
        assert.equal(
          error.message,
          `Invalid config /home/ada/.config/radar/radar.yaml: ${expected}`,
        );
        return true;
      },
    );
  }
});

Deno.test("loadConfig() reports YAML syntax errors with file and line", () => {
  assert.throws(
    () =>
      loadConfig(options({ "/home/ada/.config/radar/radar.yaml": "llm:\n  model: [unclosed\n" })),
    /^ConfigError: Invalid config \/home\/ada\/\.config\/radar\/radar\.yaml:\d+: /,
  );
});

Deno.test("loadConfig() warns about unknown keys instead of ignoring them", () => {
  const loaded = loadConfig(options({
    "/home/ada/.config/radar/radar.yaml":
      "llm:\n  modle: x\nheartbeet: {}\nwatchers:\n  - path: /tmp\n    patern: '*'\n",
  }));
  assert.deepEqual(loaded.warnings, [
    "Unknown config keys in /home/ada/.config/radar/radar.yaml (typos?): " +
    "llm.modle (did you mean llm.model?), heartbeet (did you mean heartbeat?), " +
    "watchers[0].patern (did you mean watchers[0].pattern?)",
  ]);
});

Deno.test("an unknown key names the nearest known one: other words, other order, other section", () => {
  const loaded = loadConfig(options({
    "/home/ada/.config/radar/radar.yaml":
      "budget:\n  tokens_per_day: 5\ntool_budget_tokens: 900\nllm:\n  max_context: 4096\nfoo: 1\n",
  }));
  assert.deepEqual(loaded.warnings, [
    "Unknown config keys in /home/ada/.config/radar/radar.yaml (typos?): " +
    "budget.tokens_per_day (did you mean budget.daily_tokens?), " +
    "tool_budget_tokens (did you mean llm.tool_budget_tokens?), " +
    "llm.max_context (did you mean llm.max_context_tokens?), foo",
  ]);
});

Deno.test("the repository's radar.yaml is valid, complete and equal to the defaults", () => {
  const text = Deno.readTextFileSync(new URL("../../radar.yaml", import.meta.url));
  const fromFile = loadConfig(options({ "/home/ada/.config/radar/radar.yaml": text }));
  assert.deepEqual(fromFile.warnings, []);
  const defaults = loadConfig(options({}));
  assert.deepEqual(fromFile.config, defaults.config);
  // Every section is there to read (mcp: included), and the lookup it describes is the real one.
  const sections = text.match(/^[a-z_]+:/gm)!.map((line) => line.slice(0, -1));
  assert.deepEqual(sections.toSorted(), Object.keys(defaults.config).toSorted());
  const header = text.slice(0, text.indexOf("\nradar:"));
  assert.doesNotMatch(header, /\.\/radar\.yaml/, "a radar.yaml in the cwd is not a lookup place");
  assert.match(header, /--config PATH, else RADAR_CONFIG, else\n# \$XDG_CONFIG_HOME/);
});

Deno.test("a config nested thousands of levels deep is refused as too deep, with its line", () => {
  const deep = `llm: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
  assert.throws(
    () => parseYaml(deep, "/home/user/radar.yaml"),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(
        error.message,
        "Invalid config /home/user/radar.yaml:1: it is nested too deeply",
      );
      return true;
    },
  );
});
