/**
 * What bounding a page parse costs: `queryHtml` (a fresh child process per page) on an ordinary
 * result page (DuckDuckGo's shape, 30 results, about 40 KB) and on a page of about 1 MB, against
 * node-html-parser in this process; then how long a page built to stall the parser (200 KB of
 * unclosed `<div>`) holds the caller with a 2 s deadline. Targets: an ordinary page < 500 ms, the
 * stalled page stopped within 1 s of its deadline.
 */
import type { BenchSuite } from "./index.ts";
import { queryHtml } from "../src/adapters/network/html_query.ts";

function resultPage(results: number): string {
  const blocks = Array.from(
    { length: results },
    (_, index) =>
      `<div class="result results_links web-result"><div class="links_main result__body">
<h2 class="result__title"><a class="result__a" href="https://example.com/${index}">Result ${index}</a></h2>
<a class="result__snippet" href="https://example.com/${index}">${"Snippet text ".repeat(80)}</a>
</div></div>`,
  );
  return `<!DOCTYPE html><html><body><div id="links">${blocks.join("\n")}</div></body></html>`;
}

const query = [{
  select: ".result",
  fields: { title: { within: "a.result__a", read: "text" as const } },
}];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
}

async function timed(work: () => Promise<unknown>, times: number): Promise<number> {
  const took: number[] = [];
  for (let index = 0; index < times; index++) {
    const started = performance.now();
    await work();
    took.push(performance.now() - started);
  }
  return median(took);
}

/** The HTML query suite. */
export const htmlQuerySuite: BenchSuite = {
  name: "html query",
  async run() {
    const { parse } = await import("node-html-parser");
    const small = resultPage(30);
    const large = resultPage(750);
    const child = await timed(() => queryHtml(small, query), 5);
    const inProcess = await timed(
      () => Promise.resolve(parse(small).querySelectorAll(".result")),
      5,
    );
    const childLarge = await timed(() => queryHtml(large, query), 3);
    const started = performance.now();
    const stalled = await queryHtml(`<body>${"<div>".repeat(40_000)}`, query, { timeoutMs: 2000 });
    const stalledMs = Math.round(performance.now() - started);
    if (stalled.status !== "failed") throw new Error("the stalling page was read");
    return [
      {
        metric: `an ordinary result page (${Math.round(small.length / 1024)} KB) in the child`,
        value: child,
        unit: "ms",
        target: "< 500 ms",
        met: child < 500,
      },
      { metric: "the same page parsed in this process", value: inProcess, unit: "ms" },
      {
        metric: `a ${Math.round(large.length / 1024)} KB page in the child`,
        value: childLarge,
        unit: "ms",
      },
      {
        metric: "a stalling page (200 KB unclosed <div>), deadline 2 s",
        value: stalledMs,
        unit: "ms",
        target: "< 3000 ms",
        met: stalledMs < 3000,
      },
    ];
  },
};
