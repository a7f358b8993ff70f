/** Dashboard page latency: `/` and `/history` with 10,000 conversations, server time only. */
import type { BenchSuite } from "./index.ts";
import { createWebFixture } from "../tests/web/web_fixture.ts";

const conversations = 10_000;
const targetMilliseconds = 50;

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
      const lines = [];
      for (
        const path of [
          "/",
          "/history",
          "/history?page=200",
          "/history?kind=heartbeat",
          "/history?q=question+9999",
        ]
      ) {
        const times: number[] = [];
        for (let round = 0; round < 15; round++) {
          const started = performance.now();
          const response = await fixture.app.request(path);
          await response.text();
          if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
          times.push(performance.now() - started);
        }
        const value = Math.round(median(times.slice(3)) * 10) / 10;
        lines.push({
          metric: `GET ${path} (median)`,
          value,
          unit: "ms",
          target: `< ${targetMilliseconds} ms`,
          met: value < targetMilliseconds,
        });
      }
      return lines;
    } finally {
      fixture.close();
    }
  },
};
