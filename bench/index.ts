/** Every benchmark suite, run in order by `deno task bench`. Add a line to add a suite. */

/** One suite: prints its own numbers and returns them for the summary. */
export interface BenchSuite {
  name: string;
  run(): Promise<BenchLine[]>;
}

/** One measured number with its target. */
export interface BenchLine {
  metric: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "< 5 ms". */
  target?: string;
  /** Whether the value meets the target (undefined when there is none). */
  met?: boolean;
}

/** Suites are imported lazily so one failing suite does not hide the others. */
export const suites: Array<() => Promise<BenchSuite>> = [
  () => import("./agent.ts").then((module) => module.agentSuite),
  () => import("./plugins.ts").then((module) => module.pluginSuite),
  () => import("./web_pages.ts").then((module) => module.webPagesSuite),
  () => import("./daemon.ts").then((module) => module.daemonSuite),
  () => import("./exec.ts").then((module) => module.execSuite),
  () => import("./web_load.ts").then((module) => module.webLoadSuite),
  () => import("./tool_offering.ts").then((module) => module.toolOfferingSuite),
  () => import("./soak.ts").then((module) => module.soakSuite),
];
