/**
 * The run guard's taint check, on what a busy unattended run reads: untrusted text of ten 8,000-
 * character tool results (indexed on the first check: a run that makes no changing call pays only
 * for normalising), then a typical short call and one whose argument is a 1 MB file content
 * (write_file's largest). Targets: the first check < 300 ms, then a short call < 1 ms, the largest
 * argument < 500 ms.
 */
import type { BenchSuite } from "./index.ts";
import { RunProvenance } from "../src/away/taint.ts";

function words(count: number, seed: number): string {
  let state = seed;
  const out: string[] = [];
  for (let index = 0; index < count; index++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out.push(state.toString(36).slice(0, 3 + (state % 6)));
  }
  return out.join(" ");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)].toFixed(2));
}

/** The taint suite. */
export const taintSuite: BenchSuite = {
  name: "taint check",
  run() {
    const run = new RunProvenance();
    run.addTrusted("File the PDFs that land in ~/Downloads into ~/Documents/Filed");
    const results = Array.from({ length: 10 }, (_, index) => words(1400, index + 1).slice(0, 8000));
    const started = performance.now();
    for (const result of results) run.addUntrusted("tool fetch_url", result);
    const readMs = performance.now() - started;
    const first = performance.now();
    run.findTaint({ path: "~/x" }, { pathArguments: ["path"] });
    const firstMs = performance.now() - first;
    const short: number[] = [];
    for (let index = 0; index < 50; index++) {
      const at = performance.now();
      run.findTaint(
        { source: "~/Downloads/scan_0042.pdf", destination: "~/Documents/Filed/x.pdf" },
        {
          pathArguments: ["source", "destination"],
        },
      );
      short.push(performance.now() - at);
    }
    const large: number[] = [];
    const content = words(180_000, 99).slice(0, 1_000_000);
    for (let index = 0; index < 5; index++) {
      const at = performance.now();
      run.findTaint({ path: "~/notes/big.md", content }, { pathArguments: ["path"] });
      large.push(performance.now() - at);
    }
    return Promise.resolve([
      {
        metric: "reading 80,000 untrusted characters",
        value: Number(readMs.toFixed(1)),
        unit: "ms",
      },
      {
        metric: "the first check (indexing them)",
        value: Number(firstMs.toFixed(1)),
        unit: "ms",
        target: "< 300 ms",
        met: firstMs < 300,
      },
      {
        metric: "a short call checked",
        value: median(short),
        unit: "ms",
        target: "< 1 ms",
        met: median(short) < 1,
      },
      {
        metric: "a 1 MB argument checked",
        value: median(large),
        unit: "ms",
        target: "< 500 ms",
        met: median(large) < 500,
      },
    ]);
  },
};
