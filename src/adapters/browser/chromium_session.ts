/**
 * One browser session on playwright-core: one page in its own context, popups closed, dialogs
 * dismissed, downloads refused, service workers blocked, and every submission held until the tool
 * decides: a navigation that is not GET, a non-GET request after a click (until the next document
 * loads), and a form's submit event (stopped in the page by `submitGuardScript`).
 */
import type { BrowserContext, Locator, Page, Request, Route } from "playwright-core";
import {
  actingControlWords,
  type BrowserSession,
  type ClickOutcome,
  type FilledField,
  type FillOutcome,
  type HeldSubmission,
  type PageControl,
  type PageView,
  type SessionLimits,
  type SessionNotes,
} from "../../core/browser.ts";
import { inspectScript, readPageScript, submitGuardScript } from "./page_scripts.ts";
import { withDeadline } from "./deadline.ts";
import { sleep } from "../clock.ts";
import {
  checkedFormData,
  describeBody,
  isTimeout,
  maxDataChars,
  navigationProblem,
} from "./session_text.ts";
import { firstLine } from "../../core/first_line.ts";

/** A request held back by the route rules. */
interface HeldRoute {
  route: Route;
  submission: HeldSubmission;
  /** A held navigation keeps its frame from answering until it is let go or dropped. */
  navigation: boolean;
}

/** What the session needs besides the page. */
export interface SessionParts {
  context: BrowserContext;
  page: Page;
  limits: SessionLimits;
  /** Refusals of the guarded proxy land here (shared with the proxy's callback). */
  notes: SessionNotes;
  /** Kills the browser (and the proxy); called once. */
  shutdown(): Promise<void>;
}

/**
 * The element check as a function object, which Playwright sends by its source (a string would be
 * evaluated as an expression, not called with the element).
 */
const inspectElement = new Function(`return ${inspectScript}`)() as (
  element: unknown,
  options: { actingWords: string },
) => unknown;

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);
const maxHeld = 20;

/** A session over an open page (see `startChromiumSession` for how it starts). */
export class ChromiumSession implements BrowserSession {
  #held: HeldRoute[] = [];
  /** The tool clicked on this document: its non-GET requests are submissions. */
  #interacted = false;
  /** The person said yes: submissions go through. */
  #letThrough = false;
  #closed = false;
  #lastRequestAt = 0;
  /** Submissions let through and navigations started: a yes waits for its submission to go. */
  #departures = 0;
  #controls = new Map<string, PageControl>();

  private constructor(private readonly parts: SessionParts) {}

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
        (this.#letThrough && dialog.type() === "confirm");
      (accept ? dialog.accept() : dialog.dismiss()).catch(() => {});
    });
    page.on("download", (download) => {
      notes.downloadsRefused++;
      download.cancel().catch(() => {});
    });
    page.on("request", (request) => {
      this.#lastRequestAt = performance.now();
      if (request.isNavigationRequest()) this.#departures++;
    });
    page.on("domcontentloaded", () => this.#interacted = false);
    page.on("crash", () => notes.dialogs.push("[the page crashed]"));
    await context.addInitScript({ content: submitGuardScript });
    await context.route("**/*", (route, request) => this.#onRequest(route, request));
  }

  #onRequest(route: Route, request: Request): Promise<void> {
    const method = request.method().toUpperCase();
    const navigation = request.isNavigationRequest();
    const submits = !safeMethods.has(method) && (navigation || this.#interacted);
    if (submits && this.#letThrough) this.#departures++;
    if (!submits || this.#letThrough) return route.continue().catch(() => {});
    if (this.#held.length >= maxHeld) return route.abort("blockedbyclient").catch(() => {});
    this.#held.push({
      route,
      navigation,
      submission: {
        method,
        url: request.url(),
        data: describeBody(request),
        why: navigation ? `${method} navigation` : `${method} after a click`,
      },
    });
    // Held: settled by release() or drop().
    return Promise.resolve();
  }

  async open(url: string, signal: AbortSignal): Promise<PageView> {
    await this.drop();
    this.#interacted = false;
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
    const options = { actingWords: actingControlWords };
    const found = await withDeadline(
      locator.evaluate(inspectElement, options, { timeout: this.#elementMs }) as Promise<
        Omit<PageControl, "ref">
      >,
      callMs,
      signal,
      `finding ${target}`,
    );
    const known = this.#controls.get(target);
    return {
      ...found,
      ref: known?.ref ?? target,
      selector: known?.selector ?? target,
      label: String(found.label ?? ""),
      submits: Boolean(found.submits),
      formData: checkedFormData(found.formData),
    };
  }

  async fill(values: Record<string, string>, signal: AbortSignal): Promise<FillOutcome> {
    const filled: FilledField[] = [];
    const problems: string[] = [];
    for (const [target, value] of Object.entries(values)) {
      try {
        const control = await this.inspect(target, signal);
        const locator = this.#locate(target);
        const type = control.type;
        const timeout = { timeout: this.#elementMs };
        let shown = value;
        let filling: Promise<unknown>;
        if (type === "checkbox" || type === "radio") {
          const on = /^(yes|true|on|1|x|checked)$/i.test(value.trim());
          filling = locator.setChecked(on, timeout);
          shown = on ? "yes" : "no";
        } else if (type === "select-one" || type === "select-multiple" || type === "select") {
          filling = locator.selectOption({ label: value }, timeout)
            .catch(() => locator.selectOption(value, timeout));
        } else if (type === "file") {
          problems.push(`${target}: file uploads are not supported`);
          continue;
        } else {
          filling = locator.fill(value, timeout);
        }
        await withDeadline(filling, this.parts.limits.callMs, signal, target);
        filled.push({
          target,
          selector: control.selector,
          label: control.label,
          type,
          value: shown,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        problems.push(`${target}: ${firstLine(error, 300)}`);
      }
    }
    return { filled, problems, view: await this.view(signal) };
  }

  async click(target: string, signal: AbortSignal, submitting = false): Promise<ClickOutcome> {
    const { page, limits } = this.parts;
    const locator = this.#locate(target);
    this.#interacted = true;
    this.#letThrough = submitting;
    await this.#setPageRelease(submitting);
    const departed = this.#departures;
    try {
      await withDeadline(
        locator.click({ timeout: this.#elementMs, noWaitAfter: true }),
        limits.callMs + 1000,
        signal,
        `clicking ${target}`,
      );
      // On a busy machine the submission may leave later than the page goes quiet.
      if (submitting) await this.#departure(departed, signal);
      await this.#settle(signal);
    } finally {
      if (submitting) {
        this.#letThrough = false;
        // What this click sent and arrived only now goes too: the yes was to this click.
        for (const { route } of this.#held.splice(0)) await route.continue().catch(() => {});
        await this.#setPageRelease(false);
      }
    }
    const held = [...this.#held.map((entry) => entry.submission), ...await this.#pageHeld()];
    // While a navigation is held the frame does not answer: the page is read after the decision.
    if (held.length) return { held };
    await page.waitForLoadState("domcontentloaded").catch(() => {});
    return { held, view: await this.view(signal) };
  }

  async release(signal: AbortSignal): Promise<PageView> {
    this.#letThrough = true;
    try {
      const routes = this.#held.splice(0);
      for (const { route } of routes) await route.continue().catch(() => {});
      await this.#setPageRelease(true);
      await this.#quickly(
        `(() => { for (const held of (window.__radarHeld || []).splice(0)) {
          try { held.form.requestSubmit(held.submitter || undefined); } catch { try { held.form.submit(); } catch {} }
        } })()`,
        undefined,
      );
      await this.#settle(signal);
      await this.parts.page.waitForLoadState("domcontentloaded").catch(() => {});
    } finally {
      this.#letThrough = false;
      await this.#setPageRelease(false);
    }
    return await this.view(signal);
  }

  /** Submissions the page made on its own while loading: not sent, and said so. */
  async #dropUnasked(): Promise<void> {
    const routes = this.#held.splice(0);
    // Aborted first: a held navigation keeps the frame from answering the page's own list.
    for (const { route } of routes) await route.abort("aborted").catch(() => {});
    const held = [...routes.map((entry) => entry.submission), ...await this.#pageHeld()];
    for (const submission of held.slice(0, 5)) {
      this.parts.notes.unsent.push(`${submission.method} ${submission.url} (${submission.why})`);
    }
    await this.drop();
  }

  async drop(): Promise<void> {
    for (const { route } of this.#held.splice(0)) await route.abort("aborted").catch(() => {});
    await this.#quickly("(window.__radarHeld || []).splice(0), 0", 0);
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
    const { notes } = this.parts;
    const taken = structuredClone(notes);
    notes.refused.length = 0;
    notes.dialogs.length = 0;
    notes.unsent.length = 0;
    notes.popupsClosed = 0;
    notes.downloadsRefused = 0;
    return taken;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#held = [];
    await this.parts.shutdown();
  }

  /** A ref of the last view (`f3`), else a CSS selector, in the main frame. */
  #locate(target: string): Locator {
    const page = this.parts.page;
    if (/^[fbl]\d{1,4}$/.test(target)) return page.locator(`[data-radar-ref="${target}"]`).first();
    return page.locator(target).first();
  }

  async #setPageRelease(on: boolean): Promise<void> {
    await this.#quickly(`window.__radarRelease = ${on}`, undefined);
  }

  /**
   * A short evaluation whose answer may be missing: `fallback` when the page does not answer in a
   * few seconds (a navigation is held, a script hangs) or fails.
   */
  async #quickly<T>(expression: string, fallback: T): Promise<T> {
    const ms = Math.min(3000, this.parts.limits.callMs);
    const never = new AbortController().signal;
    return await withDeadline(this.parts.page.evaluate(expression) as Promise<T>, ms, never, "page")
      .catch(() => fallback);
  }

  /** Submissions the page's own guard stopped (form submit events). */
  async #pageHeld(): Promise<HeldSubmission[]> {
    if (this.#held.some((entry) => entry.navigation)) return [];
    const found = await this.#quickly(
      `(window.__radarHeld || []).map((held) => ({ method: held.method, url: held.url, data: held.data }))`,
      [] as { method?: unknown; url?: unknown; data?: unknown }[],
    );
    return (Array.isArray(found) ? found : []).slice(0, maxHeld).map((held) => ({
      method: String(held.method ?? "GET").slice(0, 10),
      url: String(held.url ?? "").slice(0, 500),
      data: String(held.data ?? "").slice(0, maxDataChars),
      why: "form submit",
    }));
  }

  /** Waits (at most 3 s) until a submission went or a navigation started since `before`. */
  async #departure(before: number, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const limit = Math.min(3000, this.parts.limits.callMs);
    while (!signal.aborted && this.#departures === before && performance.now() - started < limit) {
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
