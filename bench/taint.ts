/**
 * The run guard's taint check, on what a busy unattended run reads: untrusted text of ten 8,000-
 * character tool results, then a call whose argument is a 1 MB file content (write_file's largest)
 * and a typical short call. Targets: a short call < 1 ms, the largest argument < 500 ms.
 */
import type { BenchSuite } from "./index.ts";
import { RunProvenance } from "../src/core/taint.ts";

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
    const started = performance.now();
    for (let index = 0; index < 10; index++) {
      run.addUntrusted(`tool fetch_url`, words(1400, index + 1).slice(0, 8000));
    }
    const indexMs = performance.now() - started;
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
        value: Number(indexMs.toFixed(1)),
        unit: "ms",
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
