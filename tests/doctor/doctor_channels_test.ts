/**
 * `radar doctor`'s chat channel lines against the Telegram Bot API and Matrix Client-Server
 * stand-ins over real HTTP, through the real CLI: a working setup, a bad token or password, an
 * unreachable server, a secret that does not resolve, nobody paired, what a running daemon
 * recorded, and a notice channel that is not configured. A channel never blocks Radar: the exit
 * code stays 0 unless something else does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { type FakeLlmHome, withFakeLlmHome } from "../helpers/fake_llm_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { deadServerUrl, standInDoctor } from "../fakes/standin_models.ts";
import { FakeTelegramServer } from "../fakes/fake_telegram_server.ts";
import { FakeMatrixServer } from "../fakes/fake_matrix_server.ts";
import { embeddedGraph, localUrl } from "../../scripts/start_paths.ts";
import { staticallyReached } from "../../scripts/module_graph.ts";

const base = "llm:\n  retries: 0\nplugins:\n  enabled: false\n";

interface Line {
  check: string;
  level: string;
  summary: string;
  fix?: string;
  blocks?: boolean;
}

interface Stand {
  home: FakeLlmHome;
  telegram: FakeTelegramServer;
  matrix: FakeMatrixServer;
  /** Writes radar.yaml: the base plus `channels`. */
  configure(yaml: string): void;
  /** `radar doctor` (default `--json`): exit code, printed text, the record's lines. */
  doctor(
    env?: Record<string, string>,
    args?: string[],
  ): Promise<{ code: number; out: string; lines: Line[]; canWork?: boolean }>;
}

async function withStandIns(work: (stand: Stand) => Promise<void>): Promise<void> {
  const telegram = new FakeTelegramServer();
  const matrix = new FakeMatrixServer();
  try {
    await withFakeLlmHome({ prefix: "radar-doctor-channels-", yaml: base }, async (home) => {
      standInDoctor(home.server, "tool_capable");
      await work({
        home,
        telegram,
        matrix,
        configure: (yaml) => Deno.writeTextFileSync(home.env.RADAR_CONFIG, base + yaml),
        async doctor(env = {}, args = ["--json"]) {
          const io = memoryIo({ ...home.env, ...env }, { cwd: home.folder });
          const code = await runCli(["doctor", ...args], io);
          const out = io.out.join("");
          if (!args.includes("--json")) return { code, out, lines: [] };
          const record = JSON.parse(out);
          return { code, out, lines: record.verdicts, canWork: record.canWork };
        },
      });
    });
  } finally {
    await telegram.close();
    await matrix.close();
  }
}

const linesOf = (lines: Line[], check: string) => lines.filter((line) => line.check === check);

function telegramYaml(apiRoot: string, extra = "  token_env: RADAR_TEST_TG\n"): string {
  return `channels:\n  telegram:\n    api_root: "${apiRoot}"\n${extra.replace(/^ {2}/gm, "    ")}`;
}

function matrixYaml(homeserver: string, secret: string, owners = '["@olive:example.test"]') {
  return `  matrix:\n    homeserver: "${homeserver}"\n    user_id: "@radar:example.test"\n` +
    `    ${secret}\n    allowed_users: ${owners}\n`;
}

Deno.test("doctor on working Telegram and Matrix channels: each answers with its secret, owners counted, exit 0", async () => {
  await withStandIns(async ({ telegram, matrix, configure, doctor }) => {
    configure(
      telegramYaml(telegram.apiRoot, "  token_env: RADAR_TEST_TG\n  allowed_users: [111]\n") +
        matrixYaml(matrix.url, `access_token_cmd: "echo ${matrix.accessToken}"`),
    );
    const env = { RADAR_TEST_TG: telegram.token };
    const { code, lines, canWork } = await doctor(env);
    assert.equal(code, 0);
    assert.equal(canWork, true);
    const tg = linesOf(lines, "telegram");
    assert.deepEqual(tg.map((line) => line.level), ["ok", "ok", "skip"]);
    assert.equal(tg[0].summary, `@radar_test_bot answers at ${telegram.apiRoot} (getMe)`);
    assert.equal(tg[1].summary, "owners: 1 in allowed_users");
    assert.equal(tg[2].summary, "no daemon runs now, and none has run this channel yet");
    assert.match(tg[2].fix!, /`radar start`/);
    assert.deepEqual(telegram.calls.map((call) => call.method), ["getMe"]);
    const mx = linesOf(lines, "matrix");
    assert.deepEqual(mx.map((line) => line.level), ["ok", "ok", "skip"]);
    assert.equal(
      mx[0].summary,
      `@radar:example.test answers at ${matrix.url} (whoami; access token)`,
    );
    // The text a person reads: the same lines, no secret in them.
    const text = await doctor(env, []);
    assert.equal(text.code, 0);
    assert.match(text.out, /\n {2}ok {4}telegram {3}@radar_test_bot answers at /);
    assert.match(text.out, /\n {2}ok {4}matrix {5}owners: 1 in allowed_users\n/);
    assert.match(text.out, /\nRadar can work \(\d+ warnings?\)\. \(/);
    for (const secret of [telegram.token, matrix.accessToken]) {
      assert.ok(!text.out.includes(secret), "a secret in the report");
    }
  });
});

Deno.test("doctor with a Matrix password: logs in on its own device, asks whoami, logs out again", async () => {
  await withStandIns(async ({ matrix, configure, doctor }) => {
    configure(`channels:\n${matrixYaml(matrix.url, 'password_env: "RADAR_TEST_MX"')}`);
    const { code, lines } = await doctor({ RADAR_TEST_MX: matrix.botPassword });
    assert.equal(code, 0);
    const [service] = linesOf(lines, "matrix");
    assert.equal(service.level, "ok", service.summary);
    assert.match(service.summary, /\(whoami; a password login, logged out again\)$/);
    assert.deepEqual(
      matrix.requests.map((request) => `${request.method} ${request.path.split("/v3/")[1]}`),
      ["POST login", "GET account/whoami", "POST logout"],
    );
    // A wrong password: the login is refused, and that is the line.
    const wrong = await doctor({ RADAR_TEST_MX: "not-the-password" });
    assert.equal(wrong.code, 0);
    const [refused] = linesOf(wrong.lines, "matrix");
    assert.equal(refused.level, "fail");
    assert.equal(
      refused.summary,
      "login as @radar:example.test refused: 403 M_FORBIDDEN Invalid username or password",
    );
    assert.equal(refused.fix, "check channels.matrix.user_id and the password");
  });
});

Deno.test("doctor on a bad Telegram token and a bad Matrix token: a failing line each with the fix, Radar still works", async () => {
  await withStandIns(async ({ telegram, matrix, configure, doctor }) => {
    configure(
      telegramYaml(telegram.apiRoot, '  token: "4242:not-the-token"\n  allowed_users: [111]\n') +
        matrixYaml(matrix.url, 'access_token: "syt_revoked_token_0000"'),
    );
    const { code, lines, canWork } = await doctor();
    assert.equal(code, 0);
    assert.equal(canWork, true);
    const [tg] = linesOf(lines, "telegram");
    assert.equal(tg.level, "fail");
    assert.equal(tg.blocks, undefined);
    assert.equal(tg.summary, `${telegram.apiRoot} refused the bot token (401 Unauthorized)`);
    assert.match(
      tg.fix!,
      /^copy the token again from @BotFather .*check channels\.telegram\.api_root$/,
    );
    const [mx] = linesOf(lines, "matrix");
    assert.equal(mx.level, "fail");
    assert.equal(
      mx.summary,
      `${matrix.url} refused the access token (401 M_UNKNOWN_TOKEN Unrecognised access token)`,
    );
    assert.match(mx.fix!, /^make a new access token for @radar:example\.test/);
    assert.ok(lines.every((line) => !/not-the-token|syt_revoked/.test(JSON.stringify(line))));
    const text = await doctor({}, []);
    assert.match(text.out, /\nRadar can work \(2 failures, \d+ warnings?\)\. \(/);
  });
});

Deno.test("doctor on unreachable channel servers: 'nothing answers' naming the key to check, exit 0", async () => {
  await withStandIns(async ({ configure, doctor }) => {
    const [deadTelegram, deadMatrix] = [await deadServerUrl(), await deadServerUrl()];
    configure(
      telegramYaml(deadTelegram, '  token: "4242:TEST-token"\n  allowed_users: [111]\n') +
        matrixYaml(deadMatrix, 'access_token: "syt_some_token_1234"'),
    );
    const { code, lines } = await doctor();
    assert.equal(code, 0);
    const [tg] = linesOf(lines, "telegram");
    assert.deepEqual(
      [tg.level, tg.summary, tg.fix],
      [
        "fail",
        `nothing answers at ${deadTelegram}: connection refused`,
        "check channels.telegram.api_root and the network",
      ],
    );
    const [mx] = linesOf(lines, "matrix");
    assert.deepEqual(
      [mx.level, mx.summary, mx.fix],
      [
        "fail",
        `nothing answers at ${deadMatrix}: connection refused`,
        "check channels.matrix.homeserver and the network",
      ],
    );
  });
});

Deno.test("doctor on secrets that do not resolve: one line naming the key, nothing asked of the service", async () => {
  await withStandIns(async ({ telegram, matrix, configure, doctor }) => {
    configure(
      telegramYaml(telegram.apiRoot, "  token_env: RADAR_TEST_TG_MISSING\n  allowed_users: [1]\n") +
        matrixYaml(matrix.url, 'access_token_cmd: "false"'),
    );
    const { code, lines } = await doctor();
    assert.equal(code, 0);
    const [tg] = linesOf(lines, "telegram");
    assert.equal(tg.level, "fail");
    assert.equal(
      tg.summary,
      "the bot token does not resolve: channels.telegram.token_env: environment variable " +
        "RADAR_TEST_TG_MISSING is empty",
    );
    assert.match(
      tg.fix!,
      /^set RADAR_TEST_TG_MISSING in the environment `radar serve` starts with/,
    );
    assert.deepEqual(telegram.calls, [], "no getMe without a token");
    const [mx] = linesOf(lines, "matrix");
    assert.equal(mx.level, "fail");
    assert.match(
      mx.summary,
      /^the access token does not resolve: channels\.matrix\.access_token_cmd: false exited with 1/,
    );
    assert.equal(
      mx.fix,
      "run `false` yourself: it must print the access token on its first line, without asking",
    );
    assert.deepEqual(matrix.requests, []);
  });
});

Deno.test("doctor when nobody is paired: a warning with the pairing command; once paired, the owner is counted", async () => {
  await withStandIns(async ({ home, telegram, configure, doctor }) => {
    configure(
      telegramYaml(telegram.apiRoot, `  token: "${telegram.token}"\n`) +
        "notifications:\n  channels: [ntfy, telegram]\n",
    );
    const { code, lines } = await doctor();
    assert.equal(code, 0);
    const owners = linesOf(lines, "telegram")[1];
    assert.equal(owners.level, "warn");
    assert.equal(
      owners.summary,
      "nobody can talk to Radar here yet: no allowed_users, nobody paired (notices for " +
        "telegram wait until someone is)",
    );
    assert.equal(
      owners.fix,
      "run `radar channel pair telegram` and send `/start CODE` to @radar_test_bot within 10 " +
        "minutes, or put your numeric id in channels.telegram.allowed_users",
    );
    // Paired the way `radar channel pair` and the bot do it: the line counts the owner.
    await home.withRadar((radar) => {
      const { code: pairing } = radar.channels.pair("telegram");
      assert.ok(
        radar.channels.owners.tryPairing("telegram", "777", `/start ${pairing}`, radar.clock.now()),
      );
      return Promise.resolve();
    });
    const paired = await doctor();
    const line = linesOf(paired.lines, "telegram")[1];
    assert.deepEqual([line.level, line.summary], ["ok", "owners: 1 paired; gets notices"]);
  });
});

Deno.test("doctor reads what the running daemon recorded: connected, failing, or a daemon that does not run the channel", async () => {
  await withStandIns(async ({ home, telegram, configure, doctor }) => {
    configure(
      telegramYaml(telegram.apiRoot, `  token: "${telegram.token}"\n  allowed_users: [1]\n`),
    );
    const record = (patch: Record<string, unknown>, pid = Deno.pid) =>
      home.withRadar((radar) => {
        radar.channels.stores.health.report(
          "telegram",
          { pid, ...patch },
          new Date("2026-11-23T10:00:00Z"),
        );
        return Promise.resolve();
      });
    await record({
      state: "connected",
      lastMessageAt: "2026-11-23T09:58:00.000Z",
      lastError: "Telegram getUpdates failed: 502 Bad Gateway",
    });
    // No daemon runs: what the last one recorded, and how to start one.
    const stopped = linesOf((await doctor()).lines, "telegram")[2];
    assert.equal(stopped.level, "skip");
    assert.match(
      stopped.summary,
      /^no daemon runs now; the last one recorded it connected \(.+\); last message in: .+, out: never; last error \(.+\): Telegram getUpdates failed: 502 Bad Gateway$/,
    );
    // This process as the running daemon (its lock file, as `radar serve` writes it).
    Deno.writeTextFileSync(
      join(home.env.RADAR_DATA_DIR, "radar.pid"),
      JSON.stringify({ pid: Deno.pid, startedAt: new Date().toISOString() }),
    );
    const connected = linesOf((await doctor()).lines, "telegram")[2];
    assert.equal(connected.level, "ok");
    assert.match(
      connected.summary,
      new RegExp(`^the daemon \\(PID ${Deno.pid}\\) reports it connected`),
    );
    // The daemon gets through where this shell does not (its token variable is not set here).
    configure(telegramYaml(telegram.apiRoot, "  token_env: RADAR_TEST_TG\n  allowed_users: [1]\n"));
    const [unset, , daemonLine] = linesOf((await doctor()).lines, "telegram");
    assert.equal(unset.level, "fail");
    assert.match(
      daemonLine.summary,
      /it gets through where this check did not: this shell's environment/,
    );
    configure(
      telegramYaml(telegram.apiRoot, `  token: "${telegram.token}"\n  allowed_users: [1]\n`),
    );
    await record({ state: "failing", lastError: "Telegram getUpdates failed: 401 Unauthorized" });
    const failing = linesOf((await doctor()).lines, "telegram")[2];
    assert.equal(failing.level, "warn");
    assert.match(
      failing.summary,
      /cannot use it \(.+\): Telegram getUpdates failed: 401 Unauthorized$/,
    );
    assert.match(
      failing.fix!,
      /^this check got through: the daemon may run with another environment/,
    );
    // A record of another process: the running daemon does not run this channel.
    await record({ state: "connected" }, Deno.pid + 100_000);
    const other = linesOf((await doctor()).lines, "telegram")[2];
    assert.equal(other.level, "warn");
    assert.match(
      other.summary,
      /does not run this channel: it started before channels\.telegram was set$/,
    );
    assert.equal(other.fix, "restart it: `radar stop`, then `radar start`");
  });
});

Deno.test("doctor on notifications.channels naming a channel that is not configured: the config line says so, with the fix", async () => {
  await withStandIns(async ({ configure, doctor }) => {
    configure("notifications:\n  channels: [ntfy, matrix]\n");
    const { code, out } = await doctor({}, []);
    assert.equal(code, 2, out);
    assert.match(
      out,
      /fail {2}config {5}Invalid config .*notifications\.channels\[1\]: matrix is not configured/,
    );
    assert.match(
      out,
      /fix: add a channels\.matrix section \(docs\/channels\.md\), or take matrix out of notifications\.channels\n/,
    );
  });
});

Deno.test("doctor with no chat channel: one line saying so, and where to read how", async () => {
  await withStandIns(async ({ configure, doctor }) => {
    configure("");
    const { lines } = await doctor();
    assert.deepEqual(linesOf(lines, "channels"), [{
      check: "channels",
      level: "skip",
      summary: "no chat channels configured (ntfy only)",
      fix: "Telegram, Matrix or email as a chat with Radar: docs/channels.md",
    }]);
  });
});

Deno.test("doctor loads no channel library before a channel check runs; deno compile still embeds them", async () => {
  const graph = await embeddedGraph();
  const libraries = [
    /^npm:\/?grammy@/,
    /^npm:\/?matrix-js-sdk@/,
    /^npm:\/?imapflow@/,
    /^npm:\/?nodemailer@/,
  ];
  const loaded = [...staticallyReached(graph, [localUrl("src/doctor/run_doctor.ts")])];
  assert.ok(
    loaded.includes(localUrl("src/doctor/channel_checks.ts")),
    "the walk reaches the checks",
  );
  for (const library of libraries) {
    assert.deepEqual(loaded.filter((specifier) => library.test(specifier)), [], String(library));
  }
  const all = graph.modules.map((module) => module.specifier);
  for (const library of libraries) {
    assert.ok(all.some((specifier) => library.test(specifier)), `${library} is embedded`);
  }
});
