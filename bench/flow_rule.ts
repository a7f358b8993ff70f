/**
 * The run guard's flow rule on what a busy unattended run meets: trusted text of a task and the
 * config, then a typical short call (a file move) and one whose argument is a 1 MB file content
 * (write_file's largest), checked for positive provenance, and a call nested 10,000 levels deep
 * (refused by the size bound, never by the stack). Targets: a short call < 1 ms, the largest
 * argument < 100 ms, the deep one < 100 ms.
 */
import type { BenchSuite } from "./index.ts";
import { trustedPlaces, underivedParts } from "../src/away/argument_provenance.ts";

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
  return Number(sorted[Math.floor(sorted.length / 2)].toFixed(3));
}

/** The median time of `times` runs of `work`, in ms. */
export function timed(times: number, work: () => void): number {
  const samples: number[] = [];
  for (let index = 0; index < times; index++) {
    const at = performance.now();
    work();
    samples.push(performance.now() - at);
  }
  return median(samples);
}

const schema = {
  type: "object",
  properties: { source: {}, destination: {}, path: {}, content: {}, deep: {} },
};

/** The flow rule suite. */
export const flowRuleSuite: BenchSuite = {
  name: "flow rule",
  run() {
    const places = trustedPlaces([
      `File the PDFs that land in ~/Downloads into ~/Documents/Filed. ${words(300, 7)}`,
      "~/Downloads",
      "~/notes",
    ], "/home/ann");
    const paths = { pathArguments: ["source", "destination", "path"], schema };
    const short = timed(200, () =>
      underivedParts(
        { source: "~/Downloads/scan_0042.pdf", destination: "~/Documents/Filed/x.pdf" },
        places,
        paths,
      ));
    const content = words(180_000, 99).slice(0, 1_000_000);
    const large = timed(
      5,
      () => underivedParts({ path: "~/notes/big.md", content }, places, paths),
    );
    let deep: unknown = "x";
    for (let level = 0; level < 10_000; level++) deep = { deep };
    const nested = timed(5, () => underivedParts({ deep }, places, { schema }));
    return Promise.resolve([
      {
        metric: "a short call checked",
        value: short,
        unit: "ms",
        target: "< 1 ms",
        met: short < 1,
      },
      {
        metric: "a 1 MB argument checked",
        value: large,
        unit: "ms",
        target: "< 100 ms",
        met: large < 100,
      },
      {
        metric: "a call nested 10,000 levels deep checked",
        value: nested,
        unit: "ms",
        target: "< 100 ms",
        met: nested < 100,
      },
    ]);
  },
};
