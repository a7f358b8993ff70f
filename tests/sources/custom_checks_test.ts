/** Custom checks run for real in bubblewrap: output, exit and JSON events, containment, time-outs. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { SqliteOutbox } from "../../src/adapters/sqlite/outbox_store.ts";
import { NtfyNotifier } from "../../src/adapters/ntfy_notifier.ts";
import { runSideEffects } from "../../src/core/run_side_effects.ts";
import { configSchema, type RadarConfig } from "../../src/config/schema.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { checkJobs, checkNotifier } from "../../src/sources/checks/check_jobs.ts";
import { checkHealthRecords } from "../../src/sources/checks/check_status.ts";
import { sourceHealthLines } from "../../src/sources/source_health_text.ts";
import { CustomChecks } from "../../src/sources/checks/custom_checks.ts";
import { runCheckCommand } from "../../src/sources/checks/check_command.ts";
import { sqliteSourceStores } from "../../src/adapters/sqlite/stores.ts";
import { execSandbox } from "../../src/adapters/os/sandbox_spec.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";
import { Secrets } from "../../src/core/secrets.ts";

/** The "checks:" lines of `radar status` for these checks. */
function checkLines(...args: Parameters<typeof checkHealthRecords>): string[] {
  return sourceHealthLines(checkHealthRecords(...args)).filter((line) =>
    !line.startsWith("sources:")
  );
}

const secret = "PRIVATE-KEY-c4e2";

/**
 * A temp home outside /tmp: checks run in the sandbox, whose /tmp is private and empty, and a
 * checkout (with tests/output) may itself live under /tmp.
 */
function checksHome() {
  const home = Deno.realPathSync(
    Deno.makeTempDirSync({ dir: "/var/tmp", prefix: "radar-checks-" }),
  );
  const dataDir = join(home, ".local/share/radar");
  Deno.mkdirSync(dataDir, { recursive: true });
  return { home, dataDir, dispose: () => Deno.removeSync(home, { recursive: true }) };
}

/** A temp home, an in-memory database and the checks job over `checks`. */
function setup(
  checks: (at: (name: string) => string) => unknown[],
  extra: Record<string, unknown> = {},
) {
  const home = checksHome();
  const file = (name: string) => join(home.home, name);
  const config: RadarConfig = configSchema.parse({ checks: checks(file), ...extra });
  const db = openDatabase(":memory:");
  const stores = sqliteSourceStores(db);
  const queue = new SqliteEventQueue(db);
  let now = new Date("2026-11-23T10:00:00Z");
  const clock = { now: () => now };
  const env = { HOME: home.home, PATH: Deno.env.get("PATH") };
  const deps = {
    config,
    dataDir: home.dataDir,
    stores,
    transaction: stores.transaction,
    queue,
    notifier: new NtfyNotifier({ config, fetch: globalThis.fetch }),
    sideEffects: (scope: string) =>
      runSideEffects(new SqliteOutbox(db), scope, clock, 4242, () => true),
    clock,
    logger: silentLogger,
    env,
    secrets: new Secrets(),
  };
  const [job] = checkJobs(deps);
  return {
    home,
    config,
    db,
    queue,
    deps,
    job,
    stores,
    results: stores.checks,
    health: stores.health,
    file,
    advance: (minutes: number) => now = new Date(now.getTime() + minutes * 60_000),
    events: () => queue.pending(100).map((event) => `${event.source}: ${event.summary}`),
    dispose() {
      db.close();
      home.dispose();
    },
  };
}

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "checks: an output change, an exit code change and a JSON value become events",
  async fn() {
    const s = setup((at) => [
      { name: "status", command: ["cat", at("status.txt")] },
      { name: "flag", command: `test -e '${at("flag")}'`, event_on: "exit" },
      {
        name: "page",
        command: ["cat", at("page.json")],
        event_on: "json",
        json_path: "status.indicator",
        json_expect: "none",
      },
    ]);
    const at = s.file;
    try {
      Deno.writeTextFileSync(at("status.txt"), "all good\n");
      Deno.writeTextFileSync(at("page.json"), JSON.stringify({ status: { indicator: "none" } }));
      await s.job.run(s.deps.clock.now(), AbortSignal.timeout(30_000));
      // First runs: output and JSON take a baseline; the failing exit code is an event at once.
      assert.deepEqual(s.events(), ["check flag: flag: exit code 1"]);
      assert.equal(s.results.last("status")?.output, "all good\n");
      Deno.writeTextFileSync(at("status.txt"), "disk almost full\n");
      Deno.writeTextFileSync(at("flag"), "");
      Deno.writeTextFileSync(
        at("page.json"),
        JSON.stringify({ status: { indicator: "major", description: "outage" } }),
      );
      // Not due yet: nothing runs.
      await s.job.run(s.advance(5), AbortSignal.timeout(30_000));
      assert.equal(s.events().length, 1);
      await s.job.run(s.advance(15), AbortSignal.timeout(30_000));
      assert.deepEqual(s.events().slice(1).sort(), [
        "check flag: flag: exit code 1 → 0",
        'check page: page: status.indicator is "major" (expected "none")',
        "check status: status: output changed: disk almost full",
      ]);
      // Unchanged output is no event.
      await s.job.run(s.advance(15), AbortSignal.timeout(30_000));
      assert.equal(s.events().length, 4);
      assert.match(checkLines(s.config, s.stores, undefined).join("\n"), /status: ok \(last run/);
    } finally {
      s.dispose();
    }
  },
}));

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "checks: a check reading a protected file is contained; a hanging one is killed",
  async fn() {
    const s = setup(() => [
      { name: "thief", command: "cat ~/.ssh/id_rsa; cat ~/.local/share/radar/radar.db; true" },
      { name: "hang", command: ["sleep", "60"], timeout_seconds: 1, event_on: "exit" },
      { name: "quick", command: ["echo", "fine"] },
    ]);
    try {
      Deno.mkdirSync(s.file(".ssh"), { recursive: true });
      Deno.writeTextFileSync(s.file(".ssh/id_rsa"), secret);
      Deno.writeTextFileSync(join(s.home.dataDir, "radar.db"), secret);
      const started = performance.now();
      await s.job.run(s.deps.clock.now(), AbortSignal.timeout(30_000));
      assert.ok(performance.now() - started < 15_000, "the hanging check was killed in time");
      const thief = s.results.last("thief")!;
      assert.equal(thief.exitCode, 0);
      assert.doesNotMatch(thief.output, new RegExp(secret));
      // The hanging check failed to run (health with backoff); the others ran beside it.
      const hang = s.health.health("check hang")!;
      assert.match(hang.lastError ?? "", /timed out after 1 s/);
      assert.equal(s.results.last("quick")?.output, "fine\n");
      assert.equal(s.health.health("check quick")?.lastError, undefined);
      const lines = checkLines(s.config, s.stores, undefined).join("\n");
      assert.match(lines, /hang: FAILING \(1× in a row, last .*; next try .*\): .*timed out/);
      assert.match(lines, /quick: ok/);
      assert.doesNotMatch(JSON.stringify(s.events()), new RegExp(secret));
    } finally {
      s.dispose();
    }
  },
}));

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "checks: one check that cannot run does not stop the others",
  async fn() {
    const s = setup(() => [
      { name: "broken", command: ["echo", "never"] },
      { name: "fine", command: ["echo", "ok"] },
    ]);
    try {
      const job = new CustomChecks({
        ...s.deps,
        store: s.health,
        checks: s.config.checks,
        results: s.results,
        files: { config: s.config, dataDir: s.home.dataDir, env: s.deps.env },
        sandbox: execSandbox({ config: s.config, env: s.deps.env }),
        notify: () => Promise.resolve("not used"),
        run: (check, files, program, signal) =>
          check.name === "broken"
            ? Promise.reject(new Error("the scratch folder cannot be used"))
            : runCheckCommand(check, files, program, signal),
      });
      await job.run(s.deps.clock.now(), AbortSignal.timeout(30_000));
      assert.match(s.health.health("check broken")?.lastError ?? "", /cannot run the check/);
      assert.equal(s.results.last("fine")?.output, "ok\n");
    } finally {
      s.dispose();
    }
  },
}));

Deno.test("checks: without a sandbox no check runs and status says why", async () => {
  const s = setup(() => [{ name: "disk", command: ["df", "/"] }]);
  try {
    const job = new CustomChecks({
      ...s.deps,
      store: s.health,
      checks: s.config.checks,
      results: s.results,
      files: { config: s.config, dataDir: s.home.dataDir, env: s.deps.env },
      sandbox: { problem: "bubblewrap is not installed (apt-get install bubblewrap)" },
      notify: () => Promise.reject(new Error("must not notify")),
      run: () => Promise.reject(new Error("must not run")),
    });
    await job.run(s.deps.clock.now(), AbortSignal.timeout(5_000));
    assert.equal(s.results.last("disk"), undefined);
    assert.equal(s.health.health("check disk"), undefined);
    assert.deepEqual(
      checkLines(s.config, s.stores, "bubblewrap is not installed (apt-get install bubblewrap)"),
      [
        "checks:",
        "  disk: FAILING: not running: bubblewrap is not installed (apt-get install bubblewrap)",
      ],
    );
    // And a config with tools.exec.sandbox off has no sandbox for checks either.
    const off = configSchema.parse({ tools: { exec: { sandbox: false } } });
    assert.equal(
      execSandbox({ config: off, env: s.deps.env }).problem,
      "tools.exec.sandbox is false",
    );
  } finally {
    s.dispose();
  }
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "checks: a zero-model check notifies once on failure and once on recovery, no events",
  sanitizeResources: false,
  async fn() {
    const ntfy = startFakeNtfy();
    const s = setup((at) => [
      {
        name: "backup",
        command: `test -e '${at("done")}' || { echo 'no backup' >&2; exit 3; }`,
        notify_on_failure: true,
      },
    ], { notifications: { ntfy: { url: ntfy.url, topic: "radar-test" } } });
    try {
      const backup = s.config.checks[0];
      await s.job.check(backup);
      assert.equal(ntfy.requests.length, 1);
      assert.equal(ntfy.requests[0].headers.title, "Check backup is failing");
      assert.equal(ntfy.requests[0].body, "exit code 3: no backup");
      assert.equal(ntfy.requests[0].headers.tags, "warning");
      // Still failing: no second notification.
      s.advance(15);
      await s.job.check(backup);
      assert.equal(ntfy.requests.length, 1);
      // A crash after sending but before the result was stored: the same outbox key, not resent.
      s.db.exec("DELETE FROM check_results");
      s.advance(15);
      await s.job.check(backup);
      assert.equal(ntfy.requests.length, 1);
      Deno.writeTextFileSync(s.file("done"), "");
      s.advance(15);
      await s.job.check(backup);
      assert.equal(ntfy.requests.length, 2);
      assert.equal(ntfy.requests[1].headers.title, "Check backup recovered");
      assert.equal(s.queue.pendingCount(), 0, "a zero-model check queues no heartbeat event");
      // The notifier goes through the notify tool: an unreachable ntfy is one line, not a throw.
      const unconfigured = configSchema.parse({});
      const notify = checkNotifier({
        ...s.deps,
        config: unconfigured,
        notifier: new NtfyNotifier({ config: unconfigured, fetch: globalThis.fetch }),
      });
      assert.match(
        await notify({ scope: "x", title: "t", message: "m", urgent: false }),
        /Notifications are not configured/,
      );
    } finally {
      s.dispose();
      await ntfy.close();
    }
  },
}));
