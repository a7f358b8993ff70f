/** Every benchmark suite, run in order by `deno task bench`. Add a line to add a suite. */
import { agentSuite } from "./agent.ts";
import { pluginSuite } from "./plugins.ts";
import { webPagesSuite } from "./web_pages.ts";
import { daemonSuite } from "./daemon.ts";
import { execSuite } from "./exec.ts";
import { webLoadSuite } from "./web_load.ts";
import { toolOfferingSuite } from "./tool_offering.ts";
import { soakSuite } from "./soak.ts";
import { daemonMemorySuite } from "./daemon_memory.ts";
import { autonomySuite } from "./autonomy.ts";
import { flowRuleSuite } from "./flow_rule.ts";
import { redactionSuite } from "./redaction.ts";
import { watcherSuite } from "./watcher.ts";
import { htmlQuerySuite } from "./html_query.ts";
import { leanSuite } from "./lean.ts";
import { knowYourModelSuite } from "./know_your_model.ts";

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

/** The suites, in order. */
export const suites: BenchSuite[] = [
  agentSuite,
  pluginSuite,
  webPagesSuite,
  daemonSuite,
  watcherSuite,
  execSuite,
  webLoadSuite,
  toolOfferingSuite,
  flowRuleSuite,
  redactionSuite,
  autonomySuite,
  htmlQuerySuite,
  leanSuite,
  knowYourModelSuite,
  daemonMemorySuite,
  soakSuite,
];
