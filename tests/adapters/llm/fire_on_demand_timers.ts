/** Timers that fire only when a test says so (no test waits for a real timeout). */

/** One started timer. */
export interface ManualTimer {
  milliseconds: number;
  fire: () => void;
  live: boolean;
}

/** Implements the adapters' `Timers` port; `fireWhenArmed` fires the first live timer of a length. */
export class FireOnDemandTimers {
  readonly started: ManualTimer[] = [];

  start(milliseconds: number, fire: () => void): () => void {
    const timer = { milliseconds, fire, live: true };
    this.started.push(timer);
    return () => timer.live = false;
  }

  /** Waits (polling, up to 5 s of real time) until a live timer of `milliseconds` runs, fires it. */
  async fireWhenArmed(milliseconds: number): Promise<void> {
    for (let polls = 0; polls < 500; polls++) {
      const timer = this.started.find((at) => at.live && at.milliseconds === milliseconds);
      if (timer) {
        timer.live = false;
        timer.fire();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no ${milliseconds} ms timer was started`);
  }
}
