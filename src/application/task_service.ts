/** Managing scheduled tasks: add, list, remove, enable, disable (CLI and LLM tools share it). */
import type { TaskOrigins, TaskStore } from "../core/work_ports.ts";
import type { Clock } from "../core/ports.ts";
import type { CatchUpPolicy } from "../core/schedule.ts";
import type { TaskRecord, TaskRequest, TaskScheduler } from "../core/schedule_ports.ts";
import { nextRunAfter, parseSchedule, shortestGapMinutes } from "./task_schedule.ts";

/** What adding a task takes: a task request and what to do with runs it missed. */
export interface TaskInput extends TaskRequest {
  catchUp?: CatchUpPolicy;
}

/** Tasks with their schedules computed in local time. */
export class TaskService implements TaskScheduler {
  constructor(
    readonly store: TaskStore,
    private readonly clock: Clock,
    private readonly timeZone?: string,
    readonly origins?: TaskOrigins,
    /** True for a personality name that resolves (tasks may name only existing ones). */
    private readonly personalityKnown?: (name: string) => Promise<boolean>,
  ) {}

  /** Adds a task; returns it, or a readable error. */
  async add(input: TaskInput): Promise<TaskRecord | { error: string }> {
    const message = input.message.trim();
    if (!message) return { error: "the task message is empty" };
    const personality = input.personality?.trim() || undefined;
    if (personality && !(await this.personalityKnown?.(personality) ?? false)) {
      return {
        error: `no personality named "${personality}" (radar personality list shows them)`,
      };
    }
    const now = this.clock.now();
    const parsed = parseSchedule(input, now, this.timeZone);
    if ("error" in parsed) return parsed;
    const nextRunAt = nextRunAfter(
      { scheduleKind: parsed.kind, schedule: parsed.schedule },
      now,
      this.timeZone,
    );
    if (input.minIntervalMinutes && nextRunAt && parsed.kind !== "at") {
      const gap = shortestGapMinutes(
        { scheduleKind: parsed.kind, schedule: parsed.schedule },
        nextRunAt,
        this.timeZone,
      );
      if (gap < input.minIntervalMinutes) {
        return {
          error: `it would run every ${
            Math.round(gap)
          } min; the shortest allowed is ${input.minIntervalMinutes} min`,
        };
      }
    }
    const name = (input.name?.trim() || message.replace(/\s+/g, " ")).slice(0, 60);
    const id = this.store.add({
      name,
      message,
      scheduleKind: parsed.kind,
      schedule: parsed.schedule,
      catchUp: input.catchUp ?? "once_within_24h",
      nextRunAt,
      personality,
    }, now);
    if (input.origin === "model") this.origins?.recordModelTask(id);
    return this.store.get(id)!;
  }

  /** True for a task the model created that the user has not approved yet. */
  needsApproval(id: number): boolean {
    const origin = this.origins?.get(id);
    return origin?.origin === "model" && !origin.approvedAt;
  }

  /** Approves a task the model created (it then runs with every tool); false when not one. */
  approve(id: number): boolean {
    return this.origins?.approve(id, this.clock.now()) ?? false;
  }

  /** Every task. */
  list(): TaskRecord[] {
    return this.store.list();
  }

  /** Removes a task. */
  remove(id: number): boolean {
    return this.store.remove(id);
  }

  /** Enables (scheduling the next run from now) or disables a task. */
  setEnabled(id: number, enabled: boolean): TaskRecord | undefined {
    const task = this.store.get(id);
    if (!task) return undefined;
    const next = enabled ? nextRunAfter(task, this.clock.now(), this.timeZone) : undefined;
    this.store.setEnabled(id, enabled && next !== undefined, next);
    return this.store.get(id);
  }
}
