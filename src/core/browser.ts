/**
 * The web browser the `browser` tool drives, as a port: sessions that open pages, list their
 * fields, buttons and links, fill, click, and hold back anything that submits until the tool
 * decided (the adapter in `src/adapters/browser/` drives Chromium through playwright-core, its
 * network through Radar's guarded proxy). Everything a page says is data from outside.
 *
 * What a browser submission sends, compared with what the person approved. The rule, in one
 * sentence: what goes is the approved method, to the approved URL, with the approved fields —
 * the same names in the same order and the values as shown; only a hidden field's value (a form
 * token the page issues afresh on every load) may differ. Anything else is not what was approved.
 * Pure: the browser adapter reads the requests, the tool shows and stores the submissions.
 */

/** Which browser Radar drives, or why there is none. */
export type BrowserAvailability =
  | { executable: string; name: string; source: "config" | "found"; problem?: undefined }
  | { problem: string; executable?: undefined };

/** A field, button or link of the page, with the short ref the model uses for it. */
export interface PageControl {
  /** `f3` (field), `b2` (button), `l7` (link): valid until the page changes. */
  ref: string;
  kind: "field" | "button" | "link";
  /** Input type (`text`, `email`, `password`, `checkbox`…), `select`, `textarea`, `button`, `link`. */
  type: string;
  label: string;
  name?: string;
  /** The current value (a password's is never shown). */
  value?: string;
  required?: boolean;
  /** A select's options (bounded). */
  options?: string[];
  /** A link's target. */
  href?: string;
  /** Finds the element again on a fresh load of the same page (a pending approval replays it). */
  selector: string;
  /** A submit control, or one whose words say buy, pay, delete, send… (clicking it asks first). */
  submits: boolean;
  /**
   * What a submit control's form would send when it is clicked (method, target, every field,
   * hidden ones too), as the page reports it right before a click: shown, then checked against
   * what the click really sends.
   */
  submission?: Submission;
}

/** What the page shows now. */
export interface PageView {
  url: string;
  title: string;
  /** The rendered text (as a person sees it), cut to the session's limit. */
  text: string;
  /** Characters left out of `text`. */
  textCut: number;
  controls: PageControl[];
  /** The page had not finished loading when the call's time was up. */
  loading: boolean;
}

/** A field a submission sends. */
export interface SubmittedField {
  name: string;
  /** The value as sent (a password's too: it is masked where it is shown). */
  value: string;
  /** The label the page shows for it (absent when only the request is known). */
  label?: string;
  /** A hidden input: its value is the page's own (a form token), never typed. */
  hidden?: boolean;
  /** A password field: shown masked. */
  secret?: boolean;
}

/**
 * What one submission sends: the method, the absolute target URL, and its form fields (every one,
 * hidden ones too) or, for a body that is not a form, the body. What a person approves, and what
 * the browser lets go afterwards (`sameSubmission` below compares them).
 */
export interface Submission {
  method: string;
  url: string;
  fields?: SubmittedField[];
  /** A body that is not a form (JSON, text). */
  body?: string;
  /** It sends more than can be shown whole (`submissionBounds`): it never goes. */
  tooLarge?: boolean;
}

/** A request the page tried to send that counts as a submission, held until the tool decides. */
export interface HeldSubmission extends Submission {
  /** `form submit`, `POST navigation`, `POST after a click`, `navigation after a click`. */
  why: string;
}

/** What happened in the session besides the calls' results (each call takes the new ones). */
export interface SessionNotes {
  /** Targets the network guard refused, with the reason. */
  refused: string[];
  popupsClosed: number;
  /** alert/confirm/prompt texts, dismissed. */
  dialogs: string[];
  downloadsRefused: number;
  /** Submissions the page started on its own (no click of the tool's): dropped, not sent. */
  unsent: string[];
  /** Requests refused because data typed into the page may go only to the origins in `fence`. */
  fenced: string[];
  /** Where typed data may go (empty while nothing was typed). */
  fence: string[];
}

/** Notes of a session where nothing happened yet. */
export function emptySessionNotes(): SessionNotes {
  return {
    refused: [],
    popupsClosed: 0,
    dialogs: [],
    downloadsRefused: 0,
    unsent: [],
    fenced: [],
    fence: [],
  };
}

/** A field the session filled (a pending approval replays it by its selector). */
export interface FilledField {
  /** The ref or selector the call named. */
  target: string;
  selector: string;
  label: string;
  /** The name the field is sent under, when it has one. */
  name?: string;
  type: string;
  /** The value as filled (a checkbox's yes/no, a select's option). */
  value: string;
}

/** What a fill did. */
export interface FillOutcome {
  filled: FilledField[];
  /** Fields that could not be filled, one line each. */
  problems: string[];
  view: PageView;
}

/** What one click did. */
export interface ClickOutcome {
  /** Submissions the click caused, held back (release or drop them). */
  held: HeldSubmission[];
  /** Approved submissions the click sent. */
  sent: Submission[];
  /** The page after the click, when nothing is held (else read it after release or drop). */
  view?: PageView;
}

/** How a click treats what it sends. */
export interface ClickOptions {
  /**
   * Submissions the person approved: each goes once when the click sends exactly it; anything
   * else that submits is held. Absent: every submission is held.
   */
  approved?: readonly Submission[];
  /** Hold GET navigations too (a control whose words say buy, pay, delete…). */
  holdNavigations?: boolean;
}

/** One browser session: one page in a fresh (or the configured) profile. */
export interface BrowserSession {
  /** Goes to `url` (already checked by the tool) and returns what it shows. */
  open(url: string, signal: AbortSignal): Promise<PageView>;
  /** What the current page shows. */
  view(signal: AbortSignal): Promise<PageView>;
  /** The current page's address. */
  url(): string;
  /** The control a ref or selector names on the current page, looked up afresh. */
  inspect(target: string, signal: AbortSignal): Promise<PageControl>;
  /**
   * Fills fields (refs or selectors → values); checkboxes take yes/no, selects an option. From
   * the first fill on, the session may reach only the origins typed into (and approved targets).
   */
  fill(values: Record<string, string>, signal: AbortSignal): Promise<FillOutcome>;
  /** True when the browser may reach `url` (nothing typed yet, or typed into its origin). */
  mayReach(url: string): boolean;
  /**
   * True once anything of this session came from an address on the user's network (a router, a
   * NAS: `browser.allowed_hosts`, `browser.allow_private`): what it shows is the user's own.
   */
  reachedPrivate?(): boolean;
  /** Clicks a control; what it submits is held unless `options.approved` holds exactly it. */
  click(target: string, signal: AbortSignal, options?: ClickOptions): Promise<ClickOutcome>;
  /**
   * Lets the held submissions go that are among `shown` (what the person approved; any other is
   * dropped) and returns what went and the page they led to.
   */
  release(shown: readonly Submission[], signal: AbortSignal): Promise<ClickOutcome>;
  /** Cancels the held submissions (nothing is sent). */
  drop(): Promise<void>;
  /** A PNG of the visible part of the page (bounded size). */
  screenshot(signal: AbortSignal): Promise<Uint8Array>;
  /** Notes gathered since the last call to this. */
  takeNotes(): SessionNotes;
  /** Kills the browser and deletes a temporary profile. */
  close(): Promise<void>;
  readonly closed: boolean;
}

/** Limits of one session. */
export interface SessionLimits {
  /** The longest one call may take. */
  callMs: number;
  /** Page text returned per view. */
  maxChars: number;
}

/** Port: the browser (absent from the tools when none is found or `browser.enabled` is off). */
export interface WebBrowser {
  availability(): BrowserAvailability;
  /** Starts a browser process with one page. */
  start(limits: SessionLimits, signal: AbortSignal): Promise<BrowserSession>;
}

/**
 * Words of controls that act (buy, pay, delete, send…): a click on one asks first, whatever it
 * turns out to send. A regular expression source, matched case-insensitively on the control's
 * label; policy data, not a boundary (the held submissions are).
 */
export const actingControlWords = String.raw`\b(submit|send|pay|buy|purchase|order|checkout|` +
  String.raw`check out|book|reserve|confirm|delete|remove|cancel (my |the )?(account|order|` +
  String.raw`subscription)|transfer|donate|subscribe|unsubscribe|sign up|register|apply|` +
  String.raw`place|publish|post|upload|kaufen|bestellen|bezahlen|zahlen|senden|löschen|` +
  String.raw`acheter|commander|payer|envoyer|supprimer|comprar|pagar|enviar|eliminar|` +
  String.raw`kopen|betalen|verzenden|verwijderen)\b`;

/**
 * How much of a submission can be shown whole: past this it is `tooLarge` and never goes (a
 * person cannot approve what the page does not let them see).
 */
export const submissionBounds = { fields: 60, valueChars: 2000, bodyChars: 8000 };

/**
 * The origin (`scheme://host[:port]`) a URL sends to; WebSocket URLs count as their http(s)
 * origin. Undefined for what reaches no server (`about:`, `data:`, `blob:`) or is no URL.
 */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = { "http:": "http:", "https:": "https:", "ws:": "http:", "wss:": "https:" }[
    parsed.protocol
  ];
  if (!scheme) return undefined;
  return new URL(`${scheme}//${parsed.host}/`).origin;
}

/** True when `actual` sends exactly what `approved` showed (see the module comment). */
export function sameSubmission(approved: Submission, actual: Submission): boolean {
  return submissionChange(approved, actual) === undefined;
}

/**
 * Why `actual` is not the approved submission, in a few words ("it now sends POST to
 * https://x.example/steal, not to https://bank.example/renew"), or undefined when it is.
 */
export function submissionChange(approved: Submission, actual: Submission): string | undefined {
  if (actual.tooLarge || approved.tooLarge) return "it sends more than can be shown";
  const method = actual.method.toUpperCase();
  if (method !== approved.method.toUpperCase() || !sameUrl(approved.url, actual.url)) {
    return `it now sends ${method} to ${actual.url}, not ${approved.method.toUpperCase()} to ${approved.url}`;
  }
  if (approved.body !== undefined || actual.body !== undefined) {
    return approved.body === actual.body ? undefined : "it now sends a different body";
  }
  return fieldsChange(approved.fields ?? [], actual.fields ?? []);
}

function fieldsChange(
  approved: readonly SubmittedField[],
  actual: readonly SubmittedField[],
): string | undefined {
  const names = (fields: readonly SubmittedField[]) => fields.map((field) => field.name);
  if (names(approved).join("\n") !== names(actual).join("\n")) {
    return `it now sends the fields ${quoteNames(names(actual))}, not ${
      quoteNames(names(approved))
    }`;
  }
  const changed = approved.find((field, index) =>
    !field.hidden && field.value !== actual[index].value
  );
  return changed
    ? `the field ${JSON.stringify(changed.label || changed.name)} now holds another value`
    : undefined;
}

function quoteNames(names: string[]): string {
  return names.length ? names.map((name) => JSON.stringify(name)).join(", ") : "no fields";
}

/** Two absolute URLs that name the same resource (fragments never leave the browser). */
function sameUrl(first: string, second: string): boolean {
  try {
    const [a, b] = [new URL(first), new URL(second)];
    a.hash = "";
    b.hash = "";
    return a.href === b.href;
  } catch {
    return false;
  }
}
