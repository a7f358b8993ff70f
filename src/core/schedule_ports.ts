/** Ports for scheduled tasks and URL monitors, as tools see them (SQLite stores behind them). */

/** A scheduled task. */
export interface TaskInfo {
  id: number;
  name: string;
  message: string;
  scheduleKind: "cron" | "every" | "at";
  /** The cron expression (local time), minutes between runs, or the ISO instant of a one-shot. */
  schedule: string;
  enabled: boolean;
  nextRunAt?: string;
  lastOutcome?: string;
}

/** What scheduling a task takes: a message and exactly one of cron, every, at. */
export interface TaskRequest {
  message: string;
  cron?: string;
  /** "30m", "2h", "1d". */
  every?: string;
  /** "2026-12-01 09:00", local time. */
  at?: string;
  name?: string;
  /** Refuse schedules that run more often than this (tasks from the model). */
  minIntervalMinutes?: number;
  /** "model": created by a tool call; runs with read-only tools until the user approves it. */
  origin?: "user" | "model";
}

/** Port: scheduled tasks. */
export interface TaskScheduler {
  add(request: TaskRequest): TaskInfo | { error: string };
  list(): TaskInfo[];
  remove(id: number): boolean;
}

/** A URL monitor. */
export interface MonitorInfo {
  id: number;
  name: string;
  url: string;
  selector: string;
  everyMinutes: number;
  enabled: boolean;
  failures: number;
  nextCheckAt: string;
  lastResult?: string;
}

/** What adding a monitor takes. */
export interface MonitorRequest {
  url: string;
  /** "60m", "2h", "1d"; default 60m. */
  every?: string;
  /** CSS selector of the part to watch. */
  selector?: string;
  name?: string;
  urgent?: boolean;
}

/** Port: URL monitors. */
export interface MonitorRegistry {
  add(request: MonitorRequest): Promise<MonitorInfo | { error: string }>;
  list(): MonitorInfo[];
  remove(id: number): boolean;
}
