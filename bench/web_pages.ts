/**
 * Dashboard page latency: `/` and `/history` with 10,000 conversations, server time only; then
 * the pages `radar serve` backs with the daemon's real views (runs, events, audit trail, log).
 */
import type { BenchLine, BenchSuite } from "./index.ts";
import { createApp } from "../web/app.tsx";
import { dirname } from "node:path";
import { logPath as daemonLogPath } from "../src/daemon/log_file.ts";
import { webDependenciesFromRuntime } from "../web/runtime_dependencies.ts";
import { createWebFixture } from "../tests/web/web_fixture.ts";
import { openTestDaemon } from "../tests/helpers/test_radar.ts";

const conversations = 10_000;
const targetMilliseconds = 50;

/** Times each path (15 rounds, the first 3 as warm-up) and compares the median to the target. */
async function timePages(
  app: { request(path: string): Response | Promise<Response> },
  paths: string[],
  label = "",
): Promise<BenchLine[]> {
  const lines: BenchLine[] = [];
  for (const path of paths) {
    const times: number[] = [];
    for (let round = 0; round < 15; round++) {
      const started = performance.now();
      const response = await app.request(path);
      await response.text();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      times.push(performance.now() - started);
    }
    const value = Math.round(median(times.slice(3)) * 10) / 10;
    lines.push({
      metric: `GET ${path}${label} (median)`,
      value,
      unit: "ms",
      target: `< ${targetMilliseconds} ms`,
      met: value < targetMilliseconds,
    });
  }
  return lines;
}

/**
 * The daemon's views over a runtime with 10,000 conversations, 10,000 heartbeat runs, 20,000
 * audit rows (a tenth of them notifications), 500 pending events and a 5 MB log file.
 */
async function daemonPages(): Promise<BenchLine[]> {
  const daemon = await openTestDaemon();
  try {
    const { runtime, services, clock } = daemon;
    const logPath = daemonLogPath(runtime.dataDir);
    Deno.mkdirSync(dirname(logPath), { recursive: true });
    const line = "2026-11-23T10:00:00.000Z INFO heartbeat finished run=1 outcome=skipped\n";
    Deno.writeTextFileSync(logPath, line.repeat(Math.ceil(5 * 1024 * 1024 / line.length)));
    let latest = 0;
    runtime.batch(() => {
      for (let index = 0; index < conversations; index++) {
        const id = runtime.conversations.createConversation(
          "heartbeat",
          `beat ${index}`,
          clock.now(),
        );
        latest = id;
        services.runs.recordSkipped("schedule", clock.now(), 1, "nothing pending");
        for (let call = 0; call < 2; call++) {
          runtime.toolCalls.recordToolCall({
            at: clock.now(),
            conversationId: id,
            tool: call === 0 && index % 5 === 0 ? "notify" : "read_file",
            arguments: JSON.stringify({ message: `note ${index}`, path: "/tmp/x" }),
            durationMs: 3,
            outcome: "ok",
            result: "done",
          });
          runtime.conversations.appendMessage(id, {
            role: "tool",
            content: "done",
            toolName: call === 0 && index % 5 === 0 ? "notify" : "read_file",
            createdAt: clock.now(),
          });
        }
        if (index < 500) {
          services.queue.enqueue(
            { source: "watcher ~/Downloads", kind: "file_added", summary: `file ${index}` },
            clock.now(),
          );
        }
        clock.advance(60_000);
      }
    });
    const deps = await webDependenciesFromRuntime(runtime, {
      daemon: { startedAt: clock.now() },
    });
    const app = createApp(deps);
    const authorization = { Authorization: `Bearer ${deps.authToken}` };
    return await timePages(
      { request: (path) => app.request(path, { headers: authorization }) },
      ["/", "/tasks", "/logs", "/logs/entries?filter=outcome%3Dran", `/history/${latest}`],
      " (daemon views)",
    );
  } finally {
    daemon.close();
    Deno.removeSync(daemon.dir, { recursive: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The suite: fills a real SQLite file, then times app.request() for each page. */
export const webPagesSuite: BenchSuite = {
  name: `dashboard pages with ${conversations} conversations`,
  async run() {
    const fixture = createWebFixture();
    try {
      const { conversations: store, clock, db } = fixture;
      db.exec("BEGIN");
      for (let index = 0; index < conversations; index++) {
        const kind = (["chat", "ask", "heartbeat", "task"] as const)[index % 4];
        const id = store.createConversation(kind, `conversation ${index}`, clock.now());
        store.appendMessage(id, {
          role: "user",
          content: `question ${index}`,
          createdAt: clock.now(),
        });
        store.appendMessage(id, {
          role: "assistant",
          content: `answer ${index}`,
          createdAt: clock.now(),
        });
        clock.advance(1000);
      }
      db.exec("COMMIT");
      const lines = await timePages(fixture.app, [
        "/",
        "/history",
        "/history?page=200",
        "/history?kind=heartbeat",
        "/history?q=question+9999",
      ]);
      lines.push(...await daemonPages());
      return lines;
    } finally {
      fixture.close();
    }
  },
};
