/**
 * The custom checks tick job: every due check runs in the exec sandbox (all at once, each on its
 * own: one check's failure never stops another); a run that is an event by the check's rule is
 * queued for the heartbeat as data. A `notify_on_failure` check queues nothing: its failure and
 * its recovery go straight to the notifier under an outbox key (no model call, never twice).
 * Without a sandbox no check runs at all.
 */
import type { CheckEntry } from "../../config/checks_schema.ts";
import type { SandboxProgram } from "../../adapters/os/sandbox.ts";
import type { FileAccessDependencies } from "../../adapters/os/file_access.ts";
import type { Secrets } from "../../core/secrets.ts";
import { backoffMinutes } from "../../core/schedule.ts";
import { type CheckDependencies, isDue, recordCheckFailure } from "../source_checks.ts";
import { type CheckRun, runCheckCommand } from "./check_command.ts";
import { type CheckOutcome, checkOutcome, type RunFacts } from "./check_outcome.ts";
import type { CheckResults } from "../source_stores.ts";
import { sha256Hex } from "../../core/bytes.ts";
import { firstLine } from "../../core/errors.ts";

/** Sends one notification under an outbox `scope`; returns what happened, one line. */
export type CheckNotifier = (
  notice: { scope: string; title: string; message: string; urgent: boolean },
) => Promise<string>;

/** What the checks job needs. */
interface CustomCheckDependencies extends CheckDependencies {
  checks: readonly CheckEntry[];
  results: CheckResults;
  files: FileAccessDependencies & { secrets?: Secrets };
  /** The sandbox program, or why there is none (then no check runs). */
  sandbox: { program?: SandboxProgram; problem?: string };
  notify: CheckNotifier;
  /** Runs a command (tests may wrap it); default: in the sandbox. */
  run?: typeof runCheckCommand;
}

/** Source name of a check in health rows and events. */
export function checkSourceName(name: string): string {
  return `check ${name}`;
}

/** The custom checks tick job. */
export class CustomChecks {
  readonly name = "checks";
  #warned = false;
  constructor(private readonly deps: CustomCheckDependencies) {}

  /** Runs every due check (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    if (!deps.sandbox.program) {
      if (!this.#warned) {
        deps.logger.warn("custom checks do not run: no sandbox", { reason: deps.sandbox.problem });
      }
      this.#warned = true;
      return;
    }
    const due = deps.checks.filter((check) => isDue(deps.store, checkSourceName(check.name), now));
    await Promise.all(due.map((check) => this.check(check, signal)));
  }

  /** Runs one check now and records it; returns the outcome (undefined without a sandbox). */
  async check(check: CheckEntry, signal?: AbortSignal): Promise<CheckOutcome | undefined> {
    const { deps } = this;
    const program = deps.sandbox.program;
    if (!program) return undefined;
    const source = checkSourceName(check.name);
    try {
      const facts = await this.#facts(check, program, signal);
      const previous = deps.results.last(check.name);
      const outcome = checkOutcome(check, previous, facts);
      const at = deps.clock.now();
      if (check.notify_on_failure) {
        await this.#notify(check, previous?.failing ?? false, previous?.lastRunAt, outcome);
      } else if (outcome.event) {
        deps.queue.enqueue({
          source,
          kind: "check_event",
          summary: outcome.event,
          urgent: check.urgent,
          dedupeKey: `check:${check.name}:${outcome.row.lastRunAt}`,
        }, at);
      }
      deps.results.save(outcome.row);
      if (facts.problem) this.#recordProblem(check, facts.problem);
      else {
        deps.store.recordSuccess(source, at, new Date(at.getTime() + check.every_minutes * 60_000));
      }
      return outcome;
    } catch (error) {
      this.#recordProblem(check, firstLine(error));
      return undefined;
    }
  }

  async #facts(check: CheckEntry, program: SandboxProgram, signal?: AbortSignal) {
    const run = this.deps.run ?? runCheckCommand;
    const started = this.deps.clock.now();
    let result: CheckRun;
    try {
      result = await run(check, this.deps.files, program, signal);
    } catch (error) {
      throw new Error(`cannot run the check: ${firstLine(error)}`);
    }
    const facts: RunFacts = {
      exitCode: result.timedOut || result.aborted ? undefined : result.code,
      stdout: result.stdout,
      stderr: result.stderr,
      outputHash: await sha256Hex(result.stdout),
      at: started,
      durationMs: result.durationMs,
    };
    if (result.timedOut) {
      facts.problem = `timed out after ${check.timeout_seconds} s (killed)`;
    } else if (result.aborted) facts.problem = "cancelled";
    return facts;
  }

  /** A run that could not finish: failing health with backoff (a notify check: no event). */
  #recordProblem(check: CheckEntry, message: string): void {
    const { deps } = this;
    const source = checkSourceName(check.name);
    if (!check.notify_on_failure) {
      recordCheckFailure(deps, source, check.every_minutes, message);
      return;
    }
    const at = deps.clock.now();
    deps.store.recordFailure(
      source,
      at,
      message,
      (count) => new Date(at.getTime() + backoffMinutes(check.every_minutes, count) * 60_000),
    );
  }

  async #notify(
    check: CheckEntry,
    wasFailing: boolean,
    previousRunAt: string | undefined,
    outcome: CheckOutcome,
  ): Promise<void> {
    if (outcome.failing === wasFailing) return;
    // The key names the last run before the change: a crash before the result is stored makes
    // the next run find the same key, and the notifier does not send it twice.
    const after = previousRunAt ?? "first-run";
    const notice = outcome.failing
      ? {
        scope: `check:${check.name}:failing-after:${after}`,
        title: `Check ${check.name} is failing`,
        message: outcome.failure ?? "failed",
      }
      : {
        scope: `check:${check.name}:recovered-after:${after}`,
        title: `Check ${check.name} recovered`,
        message: "It passes again.",
      };
    const said = await this.deps.notify({ ...notice, urgent: check.urgent });
    this.deps.logger.info("check notification", { check: check.name, result: said });
  }
}
