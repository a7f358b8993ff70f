/**
 * The session's side of `submitGuardScript`, the listener in the page that stops form submit
 * events: whether it lets them through, what it stopped, submitting some of those again, and
 * forgetting the rest. Every answer comes from the page (data to check, never a boundary: the
 * request a resubmission makes still passes the session's `RequestRules`), and a page that does
 * not answer in a few seconds (a held navigation, a hung script) gets its fallback.
 */
import type { Page } from "playwright-core";
import type { HeldSubmission } from "../../core/browser.ts";
import { withDeadline } from "./deadline.ts";
import { checkedSubmission } from "./session_text.ts";

/** A form submission the page's guard stopped, with its index in the page's list. */
export interface PageHeld {
  index: number;
  submission: HeldSubmission;
}

const maxHeld = 20;

/** The page guard of one page. */
export class PageGuard {
  constructor(private readonly page: Page, private readonly callMs: number) {}

  /** Lets submit events through (`on`) or stops them again. */
  async letThrough(on: boolean): Promise<void> {
    await this.#quickly(`window.__radarRelease = ${on}`, undefined);
  }

  /** The submissions the guard stopped that the page did not handle itself. */
  async held(): Promise<PageHeld[]> {
    const found = await this.#quickly(
      `(window.__radarHeld || []).map((held) => ({ method: held.method, url: held.url,
        fields: held.fields, tooLarge: held.tooLarge, pageHandled: held.pageHandled === true }))`,
      [] as Array<Record<string, unknown>>,
    );
    const list = Array.isArray(found) ? found.slice(0, maxHeld) : [];
    return list.flatMap((held, index) => {
      const submission = held?.pageHandled === true ? undefined : checkedSubmission(held);
      return submission ? [{ index, submission: { ...submission, why: "form submit" } }] : [];
    });
  }

  /** Submits the held forms at `indexes` again and forgets every held one. */
  async resubmit(indexes: readonly number[]): Promise<void> {
    await this.#quickly(
      `((again) => { const held = (window.__radarHeld || []).splice(0);
        for (const index of again) { const entry = held[index]; if (!entry) continue;
          try { entry.form.requestSubmit(entry.submitter || undefined); } catch { try { entry.form.submit(); } catch {} }
        } })(${JSON.stringify(indexes)})`,
      undefined,
    );
  }

  /** Forgets every held submission (nothing is sent). */
  async forget(): Promise<void> {
    await this.#quickly("(window.__radarHeld || []).splice(0), 0", 0);
  }

  /** A short evaluation whose answer may be missing: `fallback` when the page does not answer. */
  async #quickly<T>(expression: string, fallback: T): Promise<T> {
    const ms = Math.min(3000, this.callMs);
    const never = new AbortController().signal;
    return await withDeadline(this.page.evaluate(expression) as Promise<T>, ms, never, "page")
      .catch(() => fallback);
  }
}
