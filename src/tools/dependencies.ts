/** What built-in tools may use: ports and config, never concrete adapters. */
import type { RadarConfig } from "../config/schema.ts";
import type { Clock, FactStore, Logger } from "../core/ports.ts";
import type { NotificationGate, Notifier } from "../core/notifier.ts";
import type { SideEffectLog } from "../core/side_effects.ts";
import type { MonitorRegistry, TaskScheduler } from "../core/schedule_ports.ts";
import type { ChatModel } from "../core/chat_model.ts";
import type { ComicArchives, PdfInfoWriter, PdfReader } from "../library/mod.ts";
import type { MemorySearch } from "../core/recall.ts";
import type { CalendarReader, GitHubLists, MailReader } from "../core/source_ports.ts";
import type { Hooks } from "../core/hooks.ts";
import type { SkillLibrary } from "../core/system_prompt.ts";
import type { UrlCheck } from "../adapters/network/network_guard.ts";
import type { BrowserSessions } from "./browser_sessions.ts";
import type { ActionJournal } from "../away/mod.ts";
import type { Secrets } from "../core/secrets.ts";

/** Shared dependencies handed to every built-in tool factory. */
export interface ToolDependencies {
  config: RadarConfig;
  /** The config file in use (write-protected by the path guard), if any. */
  configPath?: string;
  dataDir: string;
  facts: FactStore;
  clock: Clock;
  logger: Logger;
  /** HTTP client (globalThis.fetch in production; tests may pass a recording one). */
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
  /**
   * The known secrets. Results are masked by the registry; a tool needs them only to keep them
   * out of a child's environment (`exec`) or to report one it reads (`web_search`'s key command).
   */
  secrets: Secrets;
  /** Relative paths given to file tools and exec start here (default: the process's). */
  cwd?: string;
  /** Sends `notify`'s notifications (ntfy in production). */
  notifier: Notifier;
  /** Asked by `notify` on heartbeats (default: quiet hours from config and `clock`). */
  notificationGate?: NotificationGate;
  /**
   * The outbox log under a scope, for runs without a log of their own (chat, ask): their
   * notifications are recorded too (absent: not recorded).
   */
  sideEffectLog?: (scope: string) => SideEffectLog;
  /** Scheduled tasks and URL monitors (absent: their tools are not offered). */
  tasks?: TaskScheduler;
  monitors?: MonitorRegistry;
  /** Hook points of memory (pre_memory_store, post_memory_search); absent: none. */
  hooks?: Hooks;
  /** Agent Skills usable here (absent: no use_skill tool). */
  skills?: SkillLibrary;
  /** Parses PDFs for pdf_extract (a killable subprocess in production). */
  pdfReader: PdfReader;
  /** Writes PDF Info for comic_info (absent: PDFs are read only). */
  pdfInfoWriter?: PdfInfoWriter;
  /** Reads comic archives and writes ComicInfo.xml (absent: no comic_info tool). */
  comicArchives?: ComicArchives;
  /** `llm.models.vision`: reads image-only PDF pages (absent: pdf_extract says how to enable it). */
  visionModel?: ChatModel;
  /** What `recall` searches: facts, summaries, digests (absent: the facts' FTS5 alone). */
  memory?: MemorySearch;
  /** The configured mail accounts and calendars (absent: their tools are not offered). */
  mail?: MailReader;
  calendar?: CalendarReader;
  /** Where move_file and write_file record their changes for undo (absent: not recorded). */
  journal?: ActionJournal;
  /** GitHub through gh (absent: gh is off or not installed; no github tool). */
  github?: GitHubLists;
  /** The browser's sessions and its guard (absent: off or no browser found; no browser tool). */
  browser?: { sessions: BrowserSessions; check(url: URL): Promise<UrlCheck> };
}
