/**
 * What a session lets its pages send (every request passes Playwright's route on the context):
 *
 * - a submission the person approved goes when the request sends exactly it (method, URL,
 *   fields: `sameSubmission`), once, and its origin joins the typed-data fence;
 * - once something was typed, a request to an origin outside the fence is aborted and noted,
 *   whatever it carries (`TypedDataFence`);
 * - a submission is held until the tool decides, wherever it goes (the person may approve another
 *   site): a navigation that is not GET, a request that is not GET after a click (until the next
 *   document loads), and — for a control whose words say buy, pay, delete… — the main frame's GET
 *   navigations too;
 * - everything else goes (the guarded proxy still checks every connection).
 */
import type { Page, Request, Route } from "playwright-core";
import {
  type HeldSubmission,
  originOf,
  sameSubmission,
  type SessionNotes,
  type Submission,
} from "../../core/browser.ts";
import type { TypedDataFence } from "./typed_data_fence.ts";
import { requestSubmission } from "./session_text.ts";

/** A request held back by the rules. */
export interface HeldRoute {
  route: Route;
  submission: HeldSubmission;
  /** A held navigation keeps its frame from answering until it is let go or dropped. */
  navigation: boolean;
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);
const maxHeld = 20;

/** The request rules of one session. */
export class RequestRules {
  held: HeldRoute[] = [];
  /** The tool clicked on this document: its non-GET requests are submissions. */
  interacted = false;
  /** Hold the main frame's GET navigations too (an acting control's click). */
  holdNavigations = false;
  /** Approved submissions sent since `approve`. */
  sent: Submission[] = [];
  /** Approved submissions let through (a yes waits for its submission to go). */
  departures = 0;
  #approved?: Submission[];

  constructor(
    private readonly page: Page,
    private readonly fence: TypedDataFence,
    private readonly notes: SessionNotes,
  ) {}

  /** Sets what may go (each once); undefined holds every submission again. */
  approve(submissions: readonly Submission[] | undefined): void {
    this.#approved = submissions ? [...submissions] : undefined;
    this.sent = [];
  }

  /** True while approved submissions may go (the page's own submit guard steps aside). */
  get approving(): boolean {
    return this.#approved !== undefined;
  }

  /** Decides one request. */
  async onRequest(route: Route, request: Request): Promise<void> {
    const method = request.method().toUpperCase();
    const url = request.url();
    const navigation = request.isNavigationRequest();
    const submits = safeMethods.has(method)
      ? navigation && this.holdNavigations && this.#mainFrame(request)
      : navigation || this.interacted;
    if (submits || (navigation && this.#approved?.length)) {
      const why = whyHeld(method, navigation, this.interacted);
      const submission = await requestSubmission(request, why);
      if (this.take(submission)) return await route.continue().catch(() => {});
      if (submits) {
        // Held (wherever it goes: the person may approve another site): `letGo` or `dropAll`.
        if (this.held.length >= maxHeld) {
          return await route.abort("blockedbyclient").catch(() => {});
        }
        this.held.push({ route, navigation, submission });
        return;
      }
    }
    if (!this.fence.allowsUrl(url)) {
      if (this.notes.fenced.length < 20) this.notes.fenced.push(`${method} ${shortUrl(url)}`);
      // A navigation aborted (not blocked) leaves the page where it was, without an error page.
      return await route.abort(navigation ? "aborted" : "blockedbyclient").catch(() => {});
    }
    await route.continue().catch(() => {});
  }

  /**
   * True when `submission` is one still approved: it is taken (it goes once), recorded as sent,
   * and its origin joins the fence (the person approved sending there).
   */
  take(submission: Submission): boolean {
    const index = this.#approved?.findIndex((approved) => sameSubmission(approved, submission));
    if (index === undefined || index < 0) return false;
    this.#approved!.splice(index, 1);
    this.sent.push(submission);
    this.departures++;
    // What follows the approved submission (the site's own redirects and pages) is not asked about.
    this.holdNavigations = false;
    if (this.fence.active) this.fence.allow(submission.url);
    return true;
  }

  /** True when an approved submission still waiting is the same as `submission` (not taken). */
  isApproved(submission: Submission): boolean {
    return !!this.#approved?.some((approved) => sameSubmission(approved, submission));
  }

  /** Lets the held requests go that are approved; aborts the others. Returns those aborted. */
  async letGo(): Promise<HeldSubmission[]> {
    const dropped: HeldSubmission[] = [];
    for (const { route, submission } of this.held.splice(0)) {
      if (this.take(submission)) {
        await route.continue().catch(() => {});
      } else {
        dropped.push(submission);
        await route.abort("aborted").catch(() => {});
      }
    }
    return dropped;
  }

  /** Aborts every held request; returns what they would have sent. */
  async dropAll(): Promise<HeldSubmission[]> {
    const routes = this.held.splice(0);
    for (const { route } of routes) await route.abort("aborted").catch(() => {});
    return routes.map((entry) => entry.submission);
  }

  /** True while a held navigation keeps a frame from answering. */
  get holdsNavigation(): boolean {
    return this.held.some((entry) => entry.navigation);
  }

  #mainFrame(request: Request): boolean {
    try {
      return request.frame() === this.page.mainFrame();
    } catch {
      return false;
    }
  }
}

function whyHeld(method: string, navigation: boolean, interacted: boolean): string {
  if (navigation) return `${method} navigation`;
  return interacted ? `${method} after a click` : `${method} request`;
}

/** A URL cut for a note (origin and the start of the path). */
function shortUrl(url: string): string {
  const origin = originOf(url);
  return url.length <= 120 ? url : `${origin ?? url.slice(0, 60)}/…`;
}
