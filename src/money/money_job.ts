/**
 * Money's tick job: when due, new settled files in `money.folder` are imported (each file once:
 * by its bytes' hash; one that cannot be imported is recorded with its reason and raises one
 * event, and is tried again when it changes or the daemon restarts), then uncategorised
 * transactions go to the model in batches. Nothing new costs one directory listing and one
 * query: no model call.
 * A folder that cannot be read, or a model that fails, backs off like every source.
 */
import type { MoneyConfig } from "../config/money_schema.ts";
import { firstLine, RadarError } from "../core/errors.ts";
import { type CheckDependencies, isDue, recordCheckFailure } from "../sources/source_checks.ts";
import type { MoneyAlertState, MoneyStore } from "./money_store.ts";
import type { BackgroundBudget } from "../core/budget.ts";
import { raise } from "./money_alerts_check.ts";
import { type MoneyLedger, tickModelBatches } from "./money_ledger.ts";
import { moneyCategoriesSourceName, moneySourceName } from "./money_sources.ts";
import { readStatementFile, type StatementFile } from "./statement_file.ts";
import { type FolderFile, hasSettled, listStatementFiles } from "./statement_folder.ts";

/** What the job needs. */
interface MoneyJobDependencies extends CheckDependencies {
  money: MoneyConfig;
  /** The watched folder as an absolute path (empty: none). */
  folder: string;
  ledger: MoneyLedger;
  moneyStore: MoneyStore;
  alertState: MoneyAlertState;
  /** `budget:`: past it, categorisation waits for the next day (the transactions stay pending). */
  budget?: Pick<BackgroundBudget, "pausedFor">;
  /** The file system's "now" in milliseconds (file times are real times). */
  fileClock?: () => number;
  /** How long a file must be unchanged before it is read (default 5 s). */
  settleMs?: number;
}

/** Money's tick job. */
export class MoneyJob {
  readonly name = "money";
  /** Files already handled, by path: size and time when they were, so they are not re-read. */
  readonly #handled = new Map<string, string>();
  constructor(private readonly deps: MoneyJobDependencies) {}

  /** Imports new statements and categorises what is new (must not throw). */
  async run(now: Date, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    try {
      if (deps.folder && isDue(deps.store, moneySourceName, now)) await this.scan(signal);
      if (deps.money.categorize_with_model && isDue(deps.store, moneyCategoriesSourceName, now)) {
        await this.categorize(signal);
      }
    } catch (error) {
      deps.logger.warn("money job failed", { error: firstLine(error) });
    }
  }

  /** Scans the folder now; returns the files imported and the files that failed. */
  async scan(signal?: AbortSignal): Promise<{ imported: number; failed: number }> {
    const { deps } = this;
    let files: FolderFile[];
    try {
      files = await listStatementFiles(deps.folder);
    } catch (error) {
      const reason = error instanceof Deno.errors.NotFound
        ? `the folder ${deps.folder} does not exist`
        : `cannot read ${deps.folder}: ${firstLine(error)}`;
      recordCheckFailure(deps, moneySourceName, deps.money.check_every_minutes, reason);
      return { imported: 0, failed: 0 };
    }
    const nowMs = (deps.fileClock ?? Date.now)();
    let imported = 0;
    let failed = 0;
    for (const file of files) {
      if (signal?.aborted) break;
      const stamp = `${file.size}:${file.modifiedMs}`;
      if (this.#handled.get(file.path) === stamp) continue;
      if (!hasSettled(file, nowMs, deps.settleMs ?? 5000)) continue;
      const outcome = await this.#importOne(file, signal);
      if (outcome === "imported") imported++;
      if (outcome === "failed") failed++;
      if (outcome !== "retry") this.#handled.set(file.path, stamp);
    }
    const at = deps.clock.now();
    deps.store.recordSuccess(
      moneySourceName,
      at,
      new Date(at.getTime() + deps.money.check_every_minutes * 60_000),
    );
    return { imported, failed };
  }

  async #importOne(
    file: FolderFile,
    signal?: AbortSignal,
  ): Promise<"imported" | "known" | "failed" | "retry"> {
    const { deps } = this;
    let statement: StatementFile;
    try {
      statement = await readStatementFile(file.path, Math.floor(deps.money.max_file_mib * 1048576));
    } catch (error) {
      return this.#fail(file, `size:${file.size}:${file.modifiedMs}`, error);
    }
    // A file that failed before is tried once more per daemon start (the config may be fixed).
    const known = deps.moneyStore.findImport(statement.hash);
    if (known && known.error === undefined) return "known";
    try {
      const summary = await deps.ledger.import({
        path: file.path,
        file: statement,
        ...(file.folderAccount ? { folderAccount: file.folderAccount } : {}),
      }, signal);
      deps.logger.info("statement imported", {
        file: file.name,
        added: summary.accounts.reduce((total, account) => total + account.added, 0),
      });
      return "imported";
    } catch (error) {
      if (!(error instanceof RadarError) || error.exitCode !== 2) {
        // Storage trouble or a bug, not the file: try it again on the next scan.
        deps.logger.warn("statement import failed", {
          file: file.name,
          error: firstLine(error),
        });
        return "retry";
      }
      return this.#fail(file, statement.hash, error);
    }
  }

  #fail(file: FolderFile, hash: string, error: unknown): "failed" {
    const { deps } = this;
    const message = firstLine(error);
    const at = deps.clock.now();
    deps.transaction(() => {
      deps.moneyStore.recordFailedImport({
        fileHash: hash,
        fileName: file.name,
        account: file.folderAccount ?? "",
        error: message,
      }, at);
      raise({
        config: deps.money,
        store: deps.moneyStore,
        state: deps.alertState,
        queue: deps.queue,
      }, {
        key: `import-failed:${hash}`,
        kind: "money_import_failed",
        summary: message,
      }, at);
    });
    deps.logger.warn("statement not imported", { file: file.name, error: message });
    return "failed";
  }

  /** Asks the model about uncategorised transactions; a failure backs off. */
  async categorize(signal?: AbortSignal): Promise<void> {
    const { deps } = this;
    if (!deps.moneyStore.pendingForModel(1).length) return;
    if (deps.budget?.pausedFor({ kind: "money" })) return;
    try {
      const result = await deps.ledger.categorizePending(signal, tickModelBatches);
      const at = deps.clock.now();
      deps.store.recordSuccess(moneyCategoriesSourceName, at, at);
      deps.logger.info("money categorised", { ...result });
    } catch (error) {
      recordCheckFailure(
        deps,
        moneyCategoriesSourceName,
        deps.money.check_every_minutes,
        firstLine(error),
      );
    }
  }
}
