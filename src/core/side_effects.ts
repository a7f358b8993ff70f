/**
 * The outbox port: an action that must not happen twice (a notification) is recorded under a key
 * before it happens and marked done after. The key is stable across a crash and the re-delivery
 * that follows (the runner derives it from what the run works on, plus the call's index in the
 * run), so a re-asked model that sends "the same" notification again is told it already went out.
 */

/** What an action sends, kept with its key (a notification's topic, title, body, priority). */
export interface SideEffectRecord {
  topic?: string;
  title?: string;
  body?: string;
  priority?: string;
}

/** How an action ended: the service's HTTP status, and the error when it failed. */
export interface SideEffectResult {
  status?: number;
  error?: string;
}

/** The claim on one action's key. */
export type SideEffectClaim =
  | {
    /** Nobody did this action under this key: go ahead, then call `done` (or `abandon`). */
    state: "new";
    key: string;
    done(result?: SideEffectResult): void;
    /** The action failed for sure (nothing was sent): recorded as failed, the key free to retry. */
    abandon(result?: SideEffectResult): void;
  }
  | {
    /** Already done (`sent`), or started before a crash and possibly done (`unknown`). */
    state: "sent" | "unknown";
    key: string;
    summary: string;
    at: string;
  };

/** A run's log of side effects. */
export interface SideEffectLog {
  /** Claims the next key of `kind` in this run (call index within the run). */
  begin(kind: string, summary: string, record?: SideEffectRecord): SideEffectClaim;
}
