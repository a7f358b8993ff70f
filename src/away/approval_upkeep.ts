/**
 * The tick job of "act while I'm away": unanswered approvals expire on time (their buttons die
 * with them), and once an hour old capabilities, decided approvals, journal entries past
 * `tools.files.journal_days` (with their saved copies) and old task firings are deleted.
 */
import type { Logger } from "../core/ports.ts";
import type { TaskFirings } from "./receipts.ts";
import type { ApprovalService } from "./approvals.ts";
import type { TickJob } from "../core/work_ports.ts";

/** Days decided approvals and task firings are kept. */
const keepDecidedDays = 90;

/** What the upkeep works on. */
interface ApprovalUpkeepParts {
  approvals: ApprovalService;
  firings: Pick<TaskFirings, "prune">;
  /** Prunes the action journal by `tools.files.journal_days`; returns how many went. */
  pruneJournal: () => Promise<number>;
  logger: Logger;
}

/** Expires approvals every tick; prunes hourly. */
export class ApprovalUpkeep implements TickJob {
  readonly name = "approvals";
  #lastPrune = 0;
  constructor(private readonly parts: ApprovalUpkeepParts) {}

  /** One tick. */
  async run(now: Date): Promise<void> {
    const { approvals, firings, logger } = this.parts;
    approvals.expire();
    if (now.getTime() - this.#lastPrune < 3_600_000) return;
    this.#lastPrune = now.getTime();
    approvals.prune(keepDecidedDays);
    firings.prune(new Date(now.getTime() - keepDecidedDays * 86_400_000));
    const pruned = await this.parts.pruneJournal();
    if (pruned) logger.info("action journal pruned", { entries: pruned });
  }
}
