/** The runtime's first adapters: the data directory, the SQLite stores, the chat models, ntfy. */
import type { DatabaseSync } from "node:sqlite";
import type { LoadedConfig } from "../config/loader.ts";
import type { ChatModel } from "../core/chat_model.ts";
import { join } from "node:path";
import type { Clock, Logger } from "../core/ports.ts";
import { sleep } from "../adapters/clock.ts";
import { openCurrentDatabase, stopWriting } from "../adapters/sqlite/database_file.ts";
import { knownDamage, refuseKnownDamage } from "../adapters/sqlite/damage_marker.ts";
import { SqliteConversationStore } from "../adapters/sqlite/conversation_store.ts";
import { SqliteFactStore } from "../adapters/sqlite/fact_store.ts";
import { SqliteAuditStore } from "../adapters/sqlite/audit_store.ts";
import { SqliteDigestStore } from "../adapters/sqlite/digest_store.ts";
import { SqliteOutbox } from "../adapters/sqlite/outbox_store.ts";
import { SqliteMonitorStore } from "../adapters/sqlite/monitor_store.ts";
import { SqliteEventQueue } from "../adapters/sqlite/event_queue.ts";
import { SqliteTaskFirings } from "../adapters/sqlite/task_firing_store.ts";
import type { SourceStores } from "../sources/source_stores.ts";
import type { Secrets } from "../core/secrets.ts";
import { maskedChatModel, maskedEventQueue } from "./masked_ports.ts";
import type { EventQueue } from "../core/work_ports.ts";
import { NtfyNotifier } from "../adapters/ntfy_notifier.ts";
import type { Notifier } from "../core/notifier.ts";
import { ensureDataDirectory } from "./data_directory.ts";
import { roleModel } from "./chat_models.ts";
import { type FirstUse, onFirstUse } from "./first_use.ts";
import type { RadarOptions } from "./radar_options.ts";

/** What `openCoreAdapters` opens. */
export interface CoreAdapters {
  databasePath: string;
  db: DatabaseSync;
  conversations: SqliteConversationStore;
  facts: SqliteFactStore;
  /** The tool audit trail. */
  toolCalls: SqliteAuditStore;
  /** The stored digests (listed and searched without the other sources' stores). */
  digestStore: SqliteDigestStore;
  /**
   * The event sources' stores (health, check results, digests…), built on first use (a source's
   * job, `radar status`, money, a digest written): a run never loads them.
   */
  sourceStores: FirstUse<SourceStores>;
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
 * Creates the data directory, opens the database (migrated when behind) and its stores (closed
 * again on failure); the chat models (the injected one too) are wrapped to mask every request
 * with `secrets`.
 */
export async function openCoreAdapters(
  loaded: LoadedConfig,
  options: RadarOptions,
  { clock, logger, secrets }: { clock: Clock; logger: Logger; secrets: Secrets },
): Promise<CoreAdapters> {
  const { config, dataDir } = loaded;
  ensureDataDirectory(dataDir);
  const databasePath = join(dataDir, "radar.db");
  const damage = knownDamage(databasePath);
  if (damage && !options.openDamaged) refuseKnownDamage(databasePath);
  const db = await openCurrentDatabase(databasePath);
  if (damage) stopWriting(db, databasePath, damage.problem);
  try {
    const fetcher = options.fetch ?? globalThis.fetch;
    const masked = (model: ChatModel | undefined) => model && maskedChatModel(model, secrets);
    const llm = { fetch: fetcher, logger, sleep };
    const digestStore = new SqliteDigestStore(db);
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
      digestStore,
      sourceStores: onFirstUse(
        async () => (await sourceStoresModule()).sqliteSourceStores(db, digestStore),
        { retry: true },
      ),
      queue: maskedEventQueue(new SqliteEventQueue(db), secrets),
      outbox: new SqliteOutbox(db, secrets),
      taskFirings: new SqliteTaskFirings(db),
      monitors: new SqliteMonitorStore(db),
      model: maskedChatModel(options.model ?? roleModel(config.llm, "main", llm)!, secrets),
      fastModel: masked(roleModel(config.llm, "fast", llm)),
      visionModel: masked(roleModel(config.llm, "vision", llm)),
      fetch: fetcher,
      notifier: new NtfyNotifier({ config, fetch: fetcher }),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

function sourceStoresModule(): Promise<typeof import("../adapters/sqlite/stores.ts")> {
  return import(new URL("../adapters/sqlite/stores.ts", import.meta.url).href);
}
