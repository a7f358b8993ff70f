/**
 * The web browser the `browser` tool drives, as a port: sessions that open pages, list their
 * fields, buttons and links, fill, click, and hold back anything that submits until the tool
 * decided (the adapter in `src/adapters/browser/` drives Chromium through playwright-core, its
 * network through Radar's guarded proxy). Everything a page says is data from outside.
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
   * What a submit control's form sends when it is clicked (the element's label or the name, and
   * the value; passwords masked, hidden fields included), from the check right before a click.
   */
  formData?: { label: string; value: string }[];
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

/** A request the page tried to send that counts as a submission, held until the tool decides. */
export interface HeldSubmission {
  method: string;
  url: string;
  /** What it sends: form fields or body as `name=value` lines (bounded, passwords masked). */
  data: string;
  /** `form submit`, `POST navigation`, `POST after a click`. */
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
}

/** A field the session filled (a pending approval replays it by its selector). */
export interface FilledField {
  /** The ref or selector the call named. */
  target: string;
  selector: string;
  label: string;
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
  /** The page after the click, when nothing is held (else read it after release or drop). */
  view?: PageView;
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
  /** Fills fields (refs or selectors → values); checkboxes take yes/no, selects an option. */
  fill(values: Record<string, string>, signal: AbortSignal): Promise<FillOutcome>;
  /**
   * Clicks a control. With `submitting` the clicks' submissions are let through (the person said
   * yes); otherwise every submission is held and returned.
   */
  click(target: string, signal: AbortSignal, submitting?: boolean): Promise<ClickOutcome>;
  /** Lets the held submissions go and returns the page they led to. */
  release(signal: AbortSignal): Promise<PageView>;
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
