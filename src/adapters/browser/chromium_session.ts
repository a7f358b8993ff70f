/**
 * One browser session on playwright-core: one page in its own context, popups closed, dialogs
 * dismissed, downloads refused, service workers blocked, every request decided by the session's
 * `RequestRules` (submissions held until the tool decides; once something was typed, nothing
 * goes outside the `TypedDataFence`), and a form's submit event stopped in the page by
 * `submitGuardScript` until the person approved what it sends.
 */
import type { BrowserContext, Locator, Page } from "playwright-core";
import {
  actingControlWords,
  type BrowserSession,
  type ClickOptions,
  type ClickOutcome,
  type FilledField,
  type FillOutcome,
  type HeldSubmission,
  type PageControl,
  type PageView,
  type SessionLimits,
  type SessionNotes,
  type Submission,
  submissionBounds,
} from "../../core/browser.ts";
import { inspectScript, readPageScript, submitGuardScript } from "./page_scripts.ts";
import { withDeadline } from "./deadline.ts";
import { sleep } from "../clock.ts";
import { checkedSubmission, isTimeout, navigationProblem } from "./session_text.ts";
import { PageGuard, type PageHeld } from "./page_guard.ts";
import { firstLine } from "../../core/errors.ts";
import { RequestRules } from "./request_rules.ts";
import { fillField } from "./field_filling.ts";
import type { TypedDataFence } from "./typed_data_fence.ts";

/** What the session needs besides the page. */
export interface SessionParts {
  context: BrowserContext;
  page: Page;
  limits: SessionLimits;
  /** Refusals of the guarded proxy land here (shared with the proxy's callback). */
  notes: SessionNotes;
  /** Where typed data may go (shared with the proxy). */
  fence: TypedDataFence;
  /** True once the proxy connected to an address on the user's network for this session. */
  reachedPrivate(): boolean;
  /** Kills the browser (and the proxy); called once. */
  shutdown(): Promise<void>;
}

/**
 * The element check as a function object, which Playwright sends by its source (a string would be
 * evaluated as an expression, not called with the element).
 */
const inspectElement = new Function(`return ${inspectScript}`)() as (
  element: unknown,
  options: { actingWords: string; limits: typeof submissionBounds },
) => unknown;

/** A session over an open page (see `startChromiumSession` for how it starts). */
export class ChromiumSession implements BrowserSession {
  #rules: RequestRules;
  #guard: PageGuard;
  #closed = false;
  #lastRequestAt = 0;
  #controls = new Map<string, PageControl>();

  private constructor(private readonly parts: SessionParts) {
    this.#rules = new RequestRules(parts.page, parts.fence, parts.notes);
    this.#guard = new PageGuard(parts.page, parts.limits.callMs);
  }

  /** Sets up the rules on a fresh context and page. */
  static async attach(parts: SessionParts): Promise<ChromiumSession> {
    const session = new ChromiumSession(parts);
    await session.#install();
    return session;
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #install(): Promise<void> {
    const { context, page, notes, limits } = this.parts;
    page.setDefaultTimeout(limits.callMs);
    page.setDefaultNavigationTimeout(limits.callMs);
    context.on("page", (opened) => {
      if (opened === page) return;
      notes.popupsClosed++;
      opened.close().catch(() => {});
    });
    page.on("dialog", (dialog) => {
      if (notes.dialogs.length < 10) notes.dialogs.push(dialog.message().slice(0, 200));
      const accept = dialog.type() === "beforeunload" ||
        (this.#rules.approving && dialog.type() === "confirm");
      (accept ? dialog.accept() : dialog.dismiss()).catch(() => {});
    });
    page.on("download", (download) => {
      notes.downloadsRefused++;
      download.cancel().catch(() => {});
    });
    page.on("request", () => this.#lastRequestAt = performance.now());
    page.on("domcontentloaded", () => this.#rules.interacted = false);
    page.on("crash", () => notes.dialogs.push("[the page crashed]"));
    await context.addInitScript({
      content: `(${submitGuardScript})(${JSON.stringify(submissionBounds)})`,
    });
    await context.route("**/*", (route, request) => this.#rules.onRequest(route, request));
  }

  async open(url: string, signal: AbortSignal): Promise<PageView> {
    await this.drop();
    this.#rules.interacted = false;
    const { page, limits } = this.parts;
    let loading = false;
    // The rest of the call's time is left for reading what a slow page shows so far.
    const loadMs = Math.max(limits.callMs * 2 / 3, limits.callMs - 5000);
    try {
      await withDeadline(
        page.goto(url, { waitUntil: "domcontentloaded", timeout: loadMs }),
        loadMs + 500,
        signal,
        `opening ${url}`,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      if (!isTimeout(error)) throw new Error(navigationProblem(error, this.parts.notes));
      loading = true;
    }
    // Dropped before reading: a held navigation would keep the frame from answering.
    await this.#dropUnasked();
    const view = await this.view(signal);
    return loading ? { ...view, loading: true } : view;
  }

  async view(signal: AbortSignal): Promise<PageView> {
    const { page, limits } = this.parts;
    const options = { maxChars: limits.maxChars, actingWords: actingControlWords };
    const read = page.evaluate(`(${readPageScript})(${JSON.stringify(options)})`) as Promise<
      PageView & { more?: unknown }
    >;
    const found = await withDeadline(read, limits.callMs, signal, "reading the page");
    const controls = (found.controls ?? []).slice(0, 130);
    this.#controls = new Map(controls.map((control) => [control.ref, control]));
    return {
      url: String(found.url ?? page.url()),
      title: String(found.title ?? ""),
      text: String(found.text ?? ""),
      textCut: Number(found.textCut) || 0,
      controls,
      loading: false,
    };
  }

  /** How long an element may take to be there and ready (a missing one fails, the page lives on). */
  get #elementMs(): number {
    return Math.min(5000, this.parts.limits.callMs);
  }

  url(): string {
    return this.parts.page.url();
  }

  mayReach(url: string): boolean {
    return this.parts.fence.allowsUrl(url);
  }

  reachedPrivate(): boolean {
    return this.parts.reachedPrivate();
  }

  async inspect(target: string, signal: AbortSignal): Promise<PageControl> {
    const locator = this.#locate(target);
    const { callMs } = this.parts.limits;
    const count = await withDeadline(
      locator.count().catch(() => 0),
      callMs,
      signal,
      `finding ${target}`,
    );
    if (!count) throw new Error(`${target} is not on the page (read the page again for its refs)`);
    const options = { actingWords: actingControlWords, limits: submissionBounds };
    const found = await withDeadline(
      locator.evaluate(inspectElement, options, { timeout: this.#elementMs }) as Promise<
        Omit<PageControl, "ref">
      >,
      callMs,
      signal,
      `finding ${target}`,
    );
    const known = this.#controls.get(target);
    const submission = checkedSubmission(found.submission);
    return {
      ...found,
      ref: known?.ref ?? target,
      selector: known?.selector ?? target,
      label: String(found.label ?? ""),
      submits: Boolean(found.submits),
      submission,
    };
  }

  async fill(values: Record<string, string>, signal: AbortSignal): Promise<FillOutcome> {
    // Typing is sending to this page's origin: from now on nothing else may be reached.
    this.parts.fence.allow(this.parts.page.url());
    const filled: FilledField[] = [];
    const problems: string[] = [];
    for (const [target, value] of Object.entries(values)) {
      try {
        const control = await this.inspect(target, signal);
        const type = control.type;
        const started = fillField(this.#locate(target), type, value, this.#elementMs);
        if ("problem" in started) {
          problems.push(`${target}: ${started.problem}`);
          continue;
        }
        await withDeadline(started.filling, this.parts.limits.callMs, signal, target);
        filled.push({
          target,
          selector: control.selector,
          label: control.label,
          ...(control.name ? { name: control.name } : {}),
          type,
          value: started.shown,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        problems.push(`${target}: ${firstLine(error, 300)}`);
      }
    }
    return { filled, problems, view: await this.view(signal) };
  }

  async click(
    target: string,
    signal: AbortSignal,
    options: ClickOptions = {},
  ): Promise<ClickOutcome> {
    const { limits } = this.parts;
    const locator = this.#locate(target);
    const rules = this.#rules;
    rules.interacted = true;
    rules.holdNavigations = options.holdNavigations ?? false;
    rules.approve(options.approved);
    const approving = options.approved !== undefined;
    await this.#guard.letThrough(approving);
    const departed = rules.departures;
    try {
      await withDeadline(
        locator.click({ timeout: this.#elementMs, noWaitAfter: true }),
        limits.callMs + 1000,
        signal,
        `clicking ${target}`,
      );
      // On a busy machine the submission may leave later than the page goes quiet.
      if (options.approved?.length) await this.#departure(departed, signal);
      await this.#settle(signal);
    } finally {
      rules.holdNavigations = false;
      if (approving) {
        // What this click sent and arrived only now goes too if it is what was approved.
        const late = rules.held.splice(0);
        for (const entry of late) {
          if (rules.take(entry.submission)) await entry.route.continue().catch(() => {});
          else rules.held.push(entry);
        }
        await this.#guard.letThrough(false);
      }
    }
    const sent = rules.sent;
    rules.approve(undefined);
    return await this.#outcome(sent, signal);
  }

  async release(shown: readonly Submission[], signal: AbortSignal): Promise<ClickOutcome> {
    const rules = this.#rules;
    rules.approve(shown);
    try {
      const inPage = await this.#pageHeld();
      const dropped = await rules.letGo();
      this.#noteUnsent(dropped);
      await this.#guard.letThrough(true);
      // A form the guard stopped is submitted again; the request it makes must be the one shown.
      const again = inPage.filter((held) => rules.isApproved(held.submission)).map((held) =>
        held.index
      );
      const before = rules.departures;
      await this.#guard.resubmit(again);
      if (again.length) await this.#departure(before, signal);
      await this.#settle(signal);
      await this.parts.page.waitForLoadState("domcontentloaded").catch(() => {});
    } finally {
      await this.#guard.letThrough(false);
    }
    const sent = rules.sent;
    rules.approve(undefined);
    return await this.#outcome(sent, signal);
  }

  /** What a click or a release left: held submissions (then no view) or the page now. */
  async #outcome(sent: Submission[], signal: AbortSignal): Promise<ClickOutcome> {
    const held = [
      ...this.#rules.held.map((entry) => entry.submission),
      ...(await this.#pageHeld()).map((entry) => entry.submission),
    ];
    // While a navigation is held the frame does not answer: the page is read after the decision.
    if (held.length) return { held, sent };
    await this.parts.page.waitForLoadState("domcontentloaded").catch(() => {});
    return { held, sent, view: await this.view(signal) };
  }

  /** Submissions the page made on its own while loading: not sent, and said so. */
  async #dropUnasked(): Promise<void> {
    // Aborted first: a held navigation keeps the frame from answering the page's own list.
    const routes = await this.#rules.dropAll();
    const inPage = (await this.#pageHeld()).map((entry) => entry.submission);
    this.#noteUnsent([...routes, ...inPage]);
    await this.drop();
  }

  #noteUnsent(submissions: readonly HeldSubmission[]): void {
    for (const submission of submissions.slice(0, 5)) {
      this.parts.notes.unsent.push(`${submission.method} ${submission.url} (${submission.why})`);
    }
  }

  async drop(): Promise<void> {
    await this.#rules.dropAll();
    await this.#guard.forget();
  }

  async screenshot(signal: AbortSignal): Promise<Uint8Array> {
    const { page, limits } = this.parts;
    const shot = await withDeadline(
      page.screenshot({ type: "png", timeout: limits.callMs, animations: "disabled" }),
      limits.callMs + 1000,
      signal,
      "taking a screenshot",
    );
    return new Uint8Array(shot);
  }

  takeNotes(): SessionNotes {
    const { notes, fence } = this.parts;
    const taken = { ...structuredClone(notes), fence: fence.origins };
    notes.refused.length = 0;
    notes.dialogs.length = 0;
    notes.unsent.length = 0;
    notes.fenced.length = 0;
    notes.popupsClosed = 0;
    notes.downloadsRefused = 0;
    return taken;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#rules.held = [];
    await this.parts.shutdown();
  }

  /** A ref of the last view (`f3`), else a CSS selector, in the main frame. */
  #locate(target: string): Locator {
    const page = this.parts.page;
    if (/^[fbl]\d{1,4}$/.test(target)) return page.locator(`[data-radar-ref="${target}"]`).first();
    return page.locator(target).first();
  }

  /** What the page's guard stopped (nothing can be read while a navigation is held). */
  async #pageHeld(): Promise<PageHeld[]> {
    return this.#rules.holdsNavigation ? [] : await this.#guard.held();
  }

  /** Waits (at most 3 s) until a submission went or a navigation started since `before`. */
  async #departure(before: number, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const limit = Math.min(3000, this.parts.limits.callMs);
    while (
      !signal.aborted && this.#rules.departures <= before && performance.now() - started < limit
    ) {
      await sleep(50);
    }
  }

  /** Waits until the page has sent nothing new for half a second (at most 3 s). */
  async #settle(signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const limit = Math.min(3000, this.parts.limits.callMs);
    await sleep(200);
    while (!signal.aborted && performance.now() - started < limit) {
      if (performance.now() - this.#lastRequestAt >= 500) return;
      await sleep(100);
    }
  }
}
