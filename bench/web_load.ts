/**
 * Dashboard under load: 100,000 conversations (300,000 messages) in a real SQLite file, then
 * waves of 200 concurrent requests (history list, search, deep pages, one conversation) against a
 * real `Deno.serve` of the dashboard app, fired from a Worker (bench/web_load_client.ts) as a
 * browser would. Prints client-side p50/p95 latency.
 */
import type { BenchLine, BenchSuite } from "./index.ts";
import { join } from "node:path";
import { checkDatabaseFile, quickCheck } from "../src/adapters/sqlite/maintenance.ts";
import { createWebFixture } from "../tests/web/web_fixture.ts";
import { sessionCookieNameFor, sessionValue } from "../web/middleware/auth.ts";

const conversationCount = 100_000;
const concurrency = 200;
const waves = 4;
const targetP95Milliseconds = 200;

const words = [
  "invoice",
  "garden",
  "meeting",
  "backup",
  "server",
  "holiday",
  "train",
  "budget",
  "report",
  "dentist",
  "rust",
  "deno",
  "sqlite",
  "python",
  "coffee",
  "bicycle",
  "weather",
  "package",
  "deadline",
  "concert",
  "recipe",
  "printer",
  "mortgage",
  "passport",
  "birthday",
  "kernel",
];

/** Deterministic filler text: `count` words picked from the list by a simple LCG. */
function sentence(seed: number, count: number): string {
  let state = seed * 2654435761 % 4294967296;
  const picked: string[] = [];
  for (let index = 0; index < count; index++) {
    state = (state * 1664525 + 1013904223) % 4294967296;
    picked.push(words[state % words.length]);
  }
  return picked.join(" ");
}

/** Fills the fixture's database with raw inserts (the stores' triggers and indexes apply). */
function seed(db: ReturnType<typeof createWebFixture>["db"]): void {
  const kinds = ["chat", "ask", "heartbeat", "task"];
  const conversation = db.prepare(
    "INSERT INTO conversations (id, kind, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  );
  const message = db.prepare(
    "INSERT INTO messages (conversation_id, role, content, created_at) VALUES (?, ?, ?, ?)",
  );
  const start = Date.parse("2026-01-01T00:00:00Z");
  db.exec("BEGIN");
  for (let id = 1; id <= conversationCount; id++) {
    const stamp = new Date(start + id * 60_000).toISOString();
    conversation.run(id, kinds[id % 4], `${sentence(id, 3)} ${id}`, stamp, stamp);
    message.run(id, "user", `${sentence(id * 3, 12)} question ${id}?`, stamp);
    message.run(id, "tool", sentence(id * 3 + 1, 60), stamp);
    message.run(id, "assistant", `${sentence(id * 3 + 2, 30)} answer ${id}.`, stamp);
  }
  db.exec("COMMIT");
}

/** The request mix: history pages, searches, deep pages and single conversations. */
function paths(wave: number): string[] {
  const list: string[] = [];
  for (let index = 0; index < concurrency; index++) {
    const n = wave * concurrency + index;
    switch (index % 5) {
      case 0:
        list.push(index % 2 ? "/history" : "/history?kind=heartbeat");
        break;
      case 1:
        list.push(`/history/list?q=${words[n % words.length]}`);
        break;
      case 2:
        list.push(`/history/list?q=${words[n % words.length]}+${words[(n * 7) % words.length]}`);
        break;
      case 3:
        list.push(`/history/list?page=${1 + (n * 37) % 400}`);
        break;
      default:
        list.push(`/history/${1 + (n * 7919) % conversationCount}`);
    }
  }
  return list;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** The suite. */
export const webLoadSuite: BenchSuite = {
  name: `dashboard load: ${concurrency} concurrent requests, ${conversationCount} conversations`,
  async run(): Promise<BenchLine[]> {
    const fixture = createWebFixture();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      fixture.hono.fetch,
    );
    try {
      const seeding = performance.now();
      seed(fixture.db);
      console.log(`  seeded in ${Math.round(performance.now() - seeding)} ms`);
      const size = Deno.statSync(join(fixture.directory, "radar.db")).size;
      console.log(
        `  database ${(size / 1024 / 1024).toFixed(0)} MiB; load average ${
          Deno.loadavg().map((value) => value.toFixed(1)).join(" ")
        } on ${navigator.hardwareConcurrency} cores`,
      );
      const quick = quickCheck(fixture.db);
      const integrity = checkDatabaseFile(join(fixture.directory, "radar.db"));
      const base = `http://127.0.0.1:${server.addr.port}`;
      // Logged in as a browser is: the session cookie the login link sets.
      const headers = {
        Cookie: `${sessionCookieNameFor(base)}=${await sessionValue(fixture.deps.authToken)}`,
      };
      const client = new Worker(new URL("./web_load_client.ts", import.meta.url), {
        type: "module",
      });
      const answer = await new Promise<{ latencies?: number[][]; error?: string }>((resolve) => {
        client.onmessage = (event) => resolve(event.data);
        client.onerror = (event) => resolve({ error: event.message });
        client.postMessage({
          base,
          headers,
          waves: Array.from({ length: waves }, (_, wave) => paths(wave)),
        });
      });
      client.terminate();
      if (!answer.latencies) throw new Error(answer.error ?? "the load client failed");
      // The first wave warms caches.
      const times = answer.latencies.slice(1).flat();
      times.sort((a, b) => a - b);
      const round = (value: number) => Math.round(value * 10) / 10;
      const p95 = round(percentile(times, 0.95));
      return [
        { metric: "PRAGMA quick_check (radar status)", value: quick.durationMs, unit: "ms" },
        {
          metric: "radar db check (integrity + foreign keys)",
          value: integrity.durationMs,
          unit: "ms",
        },
        { metric: "p50 latency", value: round(percentile(times, 0.5)), unit: "ms" },
        {
          metric: "p95 latency",
          value: p95,
          unit: "ms",
          target: `<= ${targetP95Milliseconds} ms`,
          met: p95 <= targetP95Milliseconds,
        },
      ];
    } finally {
      await server.shutdown();
      fixture.close();
    }
  },
};
