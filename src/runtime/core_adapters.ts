/** The runtime's first adapters: the logger, the data directory, the SQLite stores, the chat model. */
import type { DatabaseSync } from "node:sqlite";
import type { LoadedConfig } from "../config/loader.ts";
import type { RadarConfig } from "../config/schema.ts";
import type { ChatModel } from "../core/chat_model.ts";
import { join } from "node:path";
import type { Clock, Logger } from "../core/ports.ts";
import { sleep, systemClock } from "../adapters/clock.ts";
import { createChatModel, createRoleModel } from "../adapters/llm/create_chat_model.ts";
import { openDatabase, stopWriting } from "../adapters/sqlite/database.ts";
import { knownDamage, refuseKnownDamage } from "../adapters/sqlite/damage_marker.ts";
import { SqliteConversationStore } from "../adapters/sqlite/conversation_store.ts";
import { SqliteFactStore } from "../adapters/sqlite/fact_store.ts";
import { SqliteAuditStore } from "../adapters/sqlite/audit_store.ts";
import { sqliteSourceStores } from "../adapters/sqlite/stores.ts";
import { SqliteOutbox } from "../adapters/sqlite/outbox_store.ts";
import { SqliteMonitorStore } from "../adapters/sqlite/monitor_store.ts";
import { SqliteEventQueue } from "../adapters/sqlite/event_queue.ts";
import { SqliteTaskFirings } from "../adapters/sqlite/task_firing_store.ts";
import type { SourceStores } from "../sources/source_stores.ts";
import { createLogger, writeStderrLine } from "../adapters/stderr_logger.ts";
import type { Secrets } from "../core/secrets.ts";
import { maskedChatModel, maskedEventQueue } from "./masked_ports.ts";
import type { EventQueue } from "../core/work_ports.ts";
import { NtfyNotifier } from "../adapters/ntfy_notifier.ts";
import type { Notifier } from "../core/notifier.ts";
import { ensureDataDirectory } from "./data_directory.ts";
import type { RadarOptions } from "./radar_options.ts";

/** What `openCoreAdapters` opens. */
export interface CoreAdapters {
  databasePath: string;
  db: DatabaseSync;
  conversations: SqliteConversationStore;
  facts: SqliteFactStore;
  /** The tool audit trail. */
  toolCalls: SqliteAuditStore;
  /** The event sources' stores (health, check results, digests…). */
  sourceStores: SourceStores;
  /** Events waiting for the next heartbeat, masked as they are queued and read. */
  queue: EventQueue;
  /** Side effects recorded before they happen (notifications). */
  outbox: SqliteOutbox;
  /** Each time a task was due and what became of it (`radar task log`). */
  taskFirings: SqliteTaskFirings;
  /** URL monitors (the scheduled checks; the pages the user watches are trusted text). */
  monitors: SqliteMonitorStore;
  /** The main model (`RadarOptions.model` when injected). */
  model: ChatModel;
  /** `llm.models.fast` (heartbeat triage), when configured. */
  fastModel?: ChatModel;
  /** `llm.models.vision` (image-only PDF pages), when configured. */
  visionModel?: ChatModel;
  fetch: typeof fetch;
  /** Push notifications (ntfy). */
  notifier: Notifier;
}

/**
 * The clock (injected or the system's) and a logger to stderr plus the extra writers. The log is
 * an exit: every line is masked with the secrets known when it is written.
 */
export function runtimeLogging(
  config: RadarConfig,
  options: RadarOptions,
  secrets: Secrets,
): { clock: Clock; logger: Logger } {
  const clock = options.clock ?? systemClock;
  const writers = [writeStderrLine, ...(options.logWriters ?? [])];
  const logger = createLogger(
    options.logLevel ?? config.radar.log_level,
    [(line) => {
      const masked = secrets.mask(line);
      for (const write of writers) write(masked);
    }],
    () => clock.now(),
  );
  return { clock, logger };
}

/** Warns each line once per process (skills left out, a personality past the budget). */
export function onceEach(logger: Logger): (line: string) => void {
  const warned = new Set<string>();
  return (line) => {
    if (!warned.has(line)) logger.warn(line);
    warned.add(line);
  };
}

/**
 * Creates the data directory, opens the database and its stores (closed again on failure); the
 * chat models (the injected one too) are wrapped to mask every request with `secrets`.
 */
export function openCoreAdapters(
  loaded: LoadedConfig,
  options: RadarOptions,
  { clock, logger, secrets }: { clock: Clock; logger: Logger; secrets: Secrets },
): CoreAdapters {
  const { config, dataDir } = loaded;
  ensureDataDirectory(dataDir);
  const databasePath = join(dataDir, "radar.db");
  const damage = knownDamage(databasePath);
  if (damage && !options.openDamaged) refuseKnownDamage(databasePath);
  const db = openDatabase(databasePath);
  if (damage) stopWriting(db, databasePath, damage.problem);
  try {
    const fetcher = options.fetch ?? globalThis.fetch;
    const masked = (model: ChatModel | undefined) => model && maskedChatModel(model, secrets);
    const llm = { fetch: fetcher, logger, sleep };
    return {
      databasePath,
      db,
      conversations: new SqliteConversationStore(db),
      facts: new SqliteFactStore(db),
      toolCalls: new SqliteAuditStore(db, {
        secrets,
        retentionDays: config.tools.audit_retention_days,
        clock,
        logger,
      }),
      sourceStores: sqliteSourceStores(db),
      queue: maskedEventQueue(new SqliteEventQueue(db), secrets),
      outbox: new SqliteOutbox(db, secrets),
      taskFirings: new SqliteTaskFirings(db),
      monitors: new SqliteMonitorStore(db),
      model: maskedChatModel(options.model ?? createChatModel(config.llm, llm), secrets),
      fastModel: masked(createRoleModel(config.llm, "fast", llm)),
      visionModel: masked(createRoleModel(config.llm, "vision", llm)),
      fetch: fetcher,
      notifier: new NtfyNotifier({ config, fetch: fetcher }),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
