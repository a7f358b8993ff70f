/**
 * What a Radar process loads before it does its work: the static import graph (`deno info
 * --json`, type-only and dynamic imports left out) of the modules each path loads as it starts —
 * main.ts's CLI stage for every command, then the command's own registrar, then what it opens
 * (each loaded at run time, `import(new URL(…))`, so Deno does not read the rest while it starts).
 * Each path names what may be there, so a stray import fails here: `radar --version` loads the
 * CLI alone; the optional integrations (mail, calendar, MCP, the dashboard, single-use parsers)
 * load where they are used; `deno compile` still embeds them (the literal dynamic imports are in
 * the full graph).
 */
import assert from "node:assert/strict";
import { embeddedGraph, loadedBy, startPaths } from "../../scripts/start_paths.ts";

const root = new URL("../../", import.meta.url);

/** Radar's own modules of a list, as paths from the checkout. */
function ownModules(specifiers: string[]): string[] {
  return specifiers.filter((specifier) => specifier.startsWith(root.href))
    .map((specifier) => specifier.slice(root.href.length)).sort();
}

const optional = [
  /^npm:\/?imapflow@/,
  /^npm:\/?tsdav@/,
  /^npm:\/?ical\.js@/,
  // The MCP client and both transports.
  /^npm:\/?@modelcontextprotocol\/sdk@[^/]*\/client\/index\.js$/,
  /^npm:\/?@modelcontextprotocol\/sdk@[^/]*\/client\/streamableHttp\.js$/,
  /\/src\/mcp\/sandboxed_stdio_transport\.ts$/,
  /^npm:\/?markdown-it@/,
  /\/web\/app\.tsx$/,
  // Parsers needed by one tool or check each: dates, page diffs, HTML.
  /^npm:\/?chrono-node@/,
  /^npm:\/?diff@/,
  /^npm:\/?node-html-parser@/,
  // Bank statements: CSV and XML parsers load with the first imported file.
  /^npm:\/?csv-parse@/,
  /^npm:\/?fast-xml-parser@/,
  // Backup archives (radar backup, radar restore, the scheduled backup).
  /^npm:\/?tar-stream@/,
  // Comic archives and ComicInfo.xml (the document subprocess loads them per job).
  /^npm:\/?@zip\.js\/zip\.js@/,
  /^npm:\/?node-unrar-js@/,
  // The browser driver, on the first browser call.
  /^npm:\/?playwright-core@/,
];

Deno.test("radar --version loads main.ts and the CLI program alone: no command, no config schema, no Radar", async () => {
  assert.deepEqual(ownModules(await loadedBy("radar --version")), [
    "main.ts",
    "src/adapters/inspector_signal.ts",
    "src/adapters/network/bounded_read.ts",
    "src/adapters/network/html_query_flag.ts",
    "src/adapters/os/child_environment.ts",
    "src/adapters/pdf/pdf_flag.ts",
    "src/adapters/sqlite/damage_marker.ts",
    "src/adapters/sqlite/storage_failure.ts",
    "src/cli/commands/index.ts",
    "src/cli/control_commands.ts",
    "src/cli/line_editor.ts",
    "src/cli/program.ts",
    "src/cli/terminal_io.ts",
    "src/core/bytes.ts",
    "src/core/errors.ts",
    "src/core/terminal_text.ts",
    "src/sandbox/host_flag.ts",
    "src/version.ts",
  ]);
});

/**
 * What `radar ask` and `radar serve` may load: their own command (no other command's file), the
 * dashboard's server but not its pages (serve), no daemon code in ask, no eval; and at most so
 * many of Radar's modules (each is ~75 KB of an idle daemon's RSS): a stray import fails here.
 * The ceilings come down as the composition root builds features on first use.
 */
const allowed: Record<string, { cli: string[]; web: string[]; ceiling: number }> = {
  "radar ask": {
    cli: [
      "src/cli/commands/ask.ts",
      "src/cli/commands/index.ts",
      "src/cli/control_commands.ts",
      "src/cli/json_output.ts",
      "src/cli/line_editor.ts",
      "src/cli/program.ts",
      "src/cli/progress.ts",
      "src/cli/run_turn.ts",
      "src/cli/terminal_io.ts",
    ],
    web: [],
    ceiling: 218,
  },
  "radar serve": {
    cli: [
      "src/cli/arguments.ts",
      "src/cli/commands/index.ts",
      "src/cli/commands/serve.ts",
      "src/cli/control_commands.ts",
      "src/cli/line_editor.ts",
      "src/cli/program.ts",
      "src/cli/terminal_io.ts",
    ],
    web: [
      "web/bind_policy.ts",
      "web/dashboard_token.ts",
      "web/login_codes.ts",
      "web/server.ts",
    ],
    ceiling: 148,
  },
};

/**
 * Money's modules, its SQLite stores and its tool: loaded when money is first asked for
 * (src/runtime/money_parts.ts), the tool once money is in use.
 */
const moneyLoadsLater = [
  "^src/money/",
  "^src/adapters/sqlite/money_(store|reports|accounts)\\.ts$",
  "^src/tools/money\\.ts$",
];

/**
 * What neither a run nor an idle daemon asks for, each built on first use: the event sources'
 * stores (a configured source's job, `radar status`, money), the eval store and the MCP server views
 * (the dashboard, `radar status`), the stores of vectors (only with an embedding model).
 */
const statusLoadsLater = [
  "^src/adapters/sqlite/(stores|source_store|check_store|github_store|period_activity)\\.ts$",
  "^src/adapters/sqlite/(eval_store|embedding_stores|vector_table|[a-z]+_embeddings)\\.ts$",
  "^src/mcp/mcp_views\\.ts$",
];

/**
 * What a run never asks for: the scheduled work (task claims, the monitor checker, the heartbeat
 * decision, summaries, notice retries: src/runtime/scheduled_work_parts.ts, which `radar serve`
 * builds with its first tick), and the above.
 */
const runLoadsLater = [
  "^src/runtime/scheduled_work_parts\\.ts$",
  "^src/application/(heartbeat_decision|conversation_summarizer|notification_retries)\\.ts$",
  "^src/sources/monitors/monitor_checker\\.ts$",
  "^src/adapters/sqlite/task_claim_store\\.ts$",
  ...statusLoadsLater,
];

/** What `radar serve` loads only when first used (its static graph holds none of them). */
const idleDaemonLoadsLater = new RegExp(
  [
    "^src/tools/",
    "^src/plugins/plugin_system\\.ts$",
    "^src/personalities/",
    "^src/runtime/agent_stack\\.ts$",
    "^src/core/agent_loop\\.ts$",
    "^src/adapters/llm/(?!model_roles\\.ts$|settings\\.ts$)",
    "^src/adapters/sqlite/migrations/",
    // The config loader and its schema: only when the remembered config does not match, or with
    // the config file's first change.
    "^src/config/(loader|schema|unknown_keys|[a-z]+_schema)\\.ts$",
    "^src/sources/source_health\\.ts$",
    "^src/sources/monitors/page_fetch\\.ts$",
    "^src/sources/digests/digest_writer\\.ts$",
    "^src/sources/github/github_reader\\.ts$",
    // Money and its stores: when first asked for (its ledger, or its tick job once money is in
    // use); its tick job (folder scan, statement files, alerts) with its first real work.
    ...moneyLoadsLater,
    // The sources' stores, the eval store, the MCP views and the stores of vectors.
    ...statusLoadsLater,
    // The heartbeat runner (claim, triage, commit): with the first heartbeat that has work.
    "^src/application/heartbeat_(runner|commit|triage)\\.ts$",
    // The task runner: with the first task that runs.
    "^src/application/task_runner\\.ts$",
    // Acting while away: the run guard with the first agent run, undo and the journal's pruning,
    // the write preview with the first approval of a file write.
    "^src/away/(run_guard|run_labels|argument_provenance|flow_rule|file_undo|write_preview)\\.ts$",
    // The chat channels' stores, owners and status: only when a channel is configured.
    "^src/runtime/channel_parts\\.ts$",
    "^src/channels/(?!routed_notifier\\.ts$)",
    "^src/adapters/sqlite/channel_",
  ].join("|"),
);

Deno.test("radar ask and radar serve load their own command, no other, and at most their ceiling of modules", async () => {
  for (const [path, expected] of Object.entries(allowed)) {
    const own = ownModules(await loadedBy(path));
    assert.deepEqual(own.filter((module) => module.startsWith("src/cli/")), expected.cli, path);
    assert.deepEqual(own.filter((module) => module.startsWith("web/")), expected.web, path);
    assert.deepEqual(own.filter((module) => module.startsWith("src/eval/")), [], path);
    if (path === "radar ask") {
      assert.deepEqual(own.filter((module) => module.startsWith("src/daemon/")), [], path);
      // A run loads money only when it is in use (the money tool is offered then).
      const money = new RegExp(moneyLoadsLater.join("|"));
      assert.deepEqual(own.filter((module) => money.test(module)), [], path);
      // Nor what only the daemon, `radar status`, eval or the dashboard asks for.
      const later = new RegExp(runLoadsLater.join("|"));
      assert.deepEqual(own.filter((module) => later.test(module)), [], path);
    }
    if (path === "radar serve") {
      // An idle daemon: the agent stack, the agent loop, the model clients, the migrations and
      // the features' one-use code load when first used.
      assert.deepEqual(own.filter((module) => idleDaemonLoadsLater.test(module)), [], path);
    }
    assert.ok(own.length <= expected.ceiling, `${path} loads ${own.length} of Radar's modules`);
  }
});

Deno.test("no start-up path loads mail, calendar, MCP, the dashboard's app or a single-use parser", async () => {
  for (const path of Object.keys(startPaths)) {
    const reached = await loadedBy(path);
    for (const pattern of optional) {
      assert.deepEqual(
        reached.filter((specifier) => pattern.test(specifier)),
        [],
        `${path}: ${pattern}`,
      );
    }
  }
  // The walk itself works: ask reaches the config lookup and the npm package it parses with.
  const ask = await loadedBy("radar ask");
  assert.ok(ask.some((specifier) => specifier.endsWith("/src/config/remembered_config.ts")));
  assert.ok(ask.some((specifier) => /^npm:\/?yaml@/.test(specifier)));
});

Deno.test("deno compile still embeds the optional modules (run-time and literal dynamic imports)", async () => {
  const all = (await embeddedGraph()).modules;
  const specifiers = [
    ...all.map((module) => module.specifier),
    ...all.flatMap((module) =>
      (module.dependencies ?? []).map((dependency) => dependency.code?.specifier ?? "")
    ),
  ];
  for (const pattern of optional) {
    assert.ok(specifiers.some((specifier) => pattern.test(specifier)), String(pattern));
  }
  // And every command's registrar, loaded per command.
  assert.ok(specifiers.some((specifier) => specifier.endsWith("/src/cli/commands/money.ts")));
});
