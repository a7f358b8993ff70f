/**
 * Taint of a run, derived from the data and never from the model's word: which texts the run read
 * were trusted (the user's own message, a task's text, config) and which were not (tool results,
 * event text, piped input), and which arguments of a call carry untrusted text.
 *
 * An argument is tainted when it
 * - shares a run of at least `minSharedRun` characters with untrusted text that no trusted text
 *   holds (case and spacing ignored);
 * - names a file or folder (a path argument's segment of at least `minPathName` characters) that
 *   appears in untrusted text but in no trusted text;
 * - for a call that sends data out: holds a URL, host or mail address that no trusted text holds
 *   (it appeared only in untrusted text, or the model chose it after reading untrusted text).
 */

/** Shared characters that make an argument carry untrusted text ("beyond a few characters"). */
export const minSharedRun = 8;

/** The shortest file or folder name checked against untrusted text. */
const minPathName = 4;

/** Why an argument is tainted. */
export type TaintReason =
  | "untrusted_text"
  | "untrusted_name"
  | "untrusted_destination"
  | "unknown_destination";

/** One tainted argument. */
export interface TaintFinding {
  /** Where in the arguments ("url", "items[2].path"). */
  argument: string;
  reason: TaintReason;
  /** Where the untrusted text came from ("tool pdf_extract", "events"), when it did. */
  source?: string;
  /** The tainted part (at most 80 characters). */
  excerpt: string;
}

/** What `findTaint` checks besides shared text. */
export interface TaintOptions {
  /** Top-level arguments that name files or folders. */
  pathArguments?: readonly string[];
  /** Check URLs, hosts and mail addresses (calls that send data out). */
  destinations?: boolean;
}

/** One finding in words: "url: host evil.example appeared only in untrusted text (tool x)". */
export function describeFinding(finding: TaintFinding): string {
  const from = finding.source ? ` (${finding.source})` : "";
  const excerpt = JSON.stringify(finding.excerpt);
  switch (finding.reason) {
    case "untrusted_text":
      return `${finding.argument} carries untrusted text${from}: ${excerpt}`;
    case "untrusted_name":
      return `${finding.argument} uses the name ${excerpt} from untrusted text${from}`;
    case "untrusted_destination":
      return `${finding.argument}: ${excerpt} appeared only in untrusted text${from}`;
    case "unknown_destination":
      return `${finding.argument}: ${excerpt} is in none of your own text`;
  }
}

/** Lower case, compatibility forms folded, every run of white space one space. */
export function normalizeForTaint(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
}

/** The untrusted-marker blocks of a message (`wrapUntrusted`): data with its source. */
const markerBlock =
  /<untrusted id="([0-9a-f]{1,32})" source="([^"]*)">\n([\s\S]*?)\n<\/untrusted id="\1">/g;

/** Splits a message into the text outside untrusted markers and the blocks inside them. */
export function splitUntrusted(
  message: string,
): { trusted: string; untrusted: Array<{ source: string; text: string }> } {
  const untrusted: Array<{ source: string; text: string }> = [];
  const trusted = message.replace(markerBlock, (_match, _id, source: string, text: string) => {
    untrusted.push({ source, text });
    return "\n";
  });
  return { trusted, untrusted };
}

const urlPattern = /\b(?:https?|ftp|wss?):\/\/[^\s"'<>()[\]{}]+/gi;
const mailPattern = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
const hostPattern = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9](?::\d{1,5})?$/i;
const hostArgumentNames =
  /^(?:host|hostname|domain|server|to|cc|bcc|recipients?|email|address|url)$/i;

/** What a run has read, split by trust, and the question which arguments carry untrusted text. */
export class RunProvenance {
  readonly #trusted: string[] = [];
  readonly #trustedGrams = new Set<string>();
  readonly #untrusted: Array<{ source: string; text: string }> = [];
  /** Each untrusted gram → the index of the first source that holds it. */
  readonly #untrustedGrams = new Map<string, number>();

  /** Texts already in the gram indexes (built on the first check: most runs never check). */
  #indexedTrusted = 0;
  #indexedUntrusted = 0;

  /** Text the user, a task or config wrote. */
  addTrusted(text: string): void {
    if (!text.trim()) return;
    this.#trusted.push(normalizeForTaint(text));
  }

  /** Text from outside (`source`: "tool fetch_url", "events", "stdin"). */
  addUntrusted(source: string, text: string): void {
    if (!text.trim()) return;
    this.#untrusted.push({ source, text: normalizeForTaint(text) });
  }

  /** Adds the texts read since the last check to the gram indexes. */
  #index(): void {
    for (; this.#indexedTrusted < this.#trusted.length; this.#indexedTrusted++) {
      for (const gram of grams(this.#trusted[this.#indexedTrusted])) this.#trustedGrams.add(gram);
    }
    for (; this.#indexedUntrusted < this.#untrusted.length; this.#indexedUntrusted++) {
      for (const gram of grams(this.#untrusted[this.#indexedUntrusted].text)) {
        if (!this.#untrustedGrams.has(gram)) {
          this.#untrustedGrams.set(gram, this.#indexedUntrusted);
        }
      }
    }
  }

  /** A message Radar or the user wrote, with untrusted blocks in markers (heartbeat, piped ask). */
  addMessage(message: string): void {
    const { trusted, untrusted } = splitUntrusted(message);
    this.addTrusted(trusted);
    for (const block of untrusted) this.addUntrusted(block.source, block.text);
  }

  /** True once the run has read any untrusted text. */
  get readUntrusted(): boolean {
    return this.#untrusted.length > 0;
  }

  /** Where the untrusted text came from, each source once, in reading order. */
  get untrustedSources(): string[] {
    return [...new Set(this.#untrusted.map((entry) => entry.source))];
  }

  /** The tainted arguments of a call (none while the run has read no untrusted text). */
  findTaint(args: Record<string, unknown>, options: TaintOptions = {}): TaintFinding[] {
    if (!this.readUntrusted) return [];
    this.#index();
    const findings: TaintFinding[] = [];
    const paths = new Set(options.pathArguments ?? []);
    for (const leaf of stringLeaves(args)) {
      const finding = (options.destinations ? this.#destination(leaf) : undefined) ??
        (paths.has(leaf.top) ? this.#pathName(leaf) : undefined) ??
        this.#sharedRun(leaf);
      if (finding) findings.push(finding);
    }
    return findings;
  }

  #sourceOf(normalizedPart: string): string | undefined {
    return this.#untrusted.find((entry) => entry.text.includes(normalizedPart))?.source;
  }

  #inTrusted(normalizedPart: string): boolean {
    return this.#trusted.some((text) => text.includes(normalizedPart));
  }

  #destination(leaf: Leaf): TaintFinding | undefined {
    const found: string[] = [];
    for (const match of leaf.value.matchAll(urlPattern)) {
      try {
        found.push(new URL(match[0]).hostname.replace(/^\[|\]$/g, ""));
      } catch { /* not a URL after all */ }
    }
    for (const match of leaf.value.matchAll(mailPattern)) found.push(match[0]);
    const bare = leaf.value.trim();
    if (hostArgumentNames.test(leaf.key) && hostPattern.test(bare)) found.push(bare);
    for (const destination of found) {
      const normalized = normalizeForTaint(destination);
      if (this.#inTrusted(normalized)) continue;
      const source = this.#sourceOf(normalized);
      return {
        argument: leaf.path,
        reason: source ? "untrusted_destination" : "unknown_destination",
        source,
        excerpt: cut(destination),
      };
    }
    return undefined;
  }

  #pathName(leaf: Leaf): TaintFinding | undefined {
    for (const segment of leaf.value.split(/[/\\]+/)) {
      const normalized = normalizeForTaint(segment.trim());
      if (normalized.length < minPathName || normalized === "~") continue;
      if (this.#inTrusted(normalized)) continue;
      const source = this.#sourceOf(normalized);
      if (source) {
        return { argument: leaf.path, reason: "untrusted_name", source, excerpt: cut(segment) };
      }
    }
    return undefined;
  }

  #sharedRun(leaf: Leaf): TaintFinding | undefined {
    const text = normalizeForTaint(leaf.value);
    const tainted = (at: number) => {
      const gram = text.slice(at, at + minSharedRun);
      return this.#untrustedGrams.has(gram) && !this.#trustedGrams.has(gram);
    };
    for (let start = 0; start + minSharedRun <= text.length; start++) {
      if (!tainted(start)) continue;
      const source =
        this.#untrusted[this.#untrustedGrams.get(text.slice(start, start + minSharedRun))!]
          .source;
      let end = start;
      while (end + 1 + minSharedRun <= text.length && tainted(end + 1)) end++;
      return {
        argument: leaf.path,
        reason: "untrusted_text",
        source,
        excerpt: cut(text.slice(start, end + minSharedRun).trim()),
      };
    }
    return undefined;
  }
}

/** A string (or number) in the arguments: its path, its top-level key and its own key. */
interface Leaf {
  path: string;
  top: string;
  key: string;
  value: string;
}

/** Every string and number in the arguments, at most 12 levels deep. */
function stringLeaves(args: Record<string, unknown>): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (value: unknown, path: string, top: string, key: string, depth: number) => {
    if (typeof value === "string") leaves.push({ path, top, key, value });
    else if (typeof value === "number" || typeof value === "bigint") {
      leaves.push({ path, top, key, value: String(value) });
    } else if (Array.isArray(value) && depth < 12) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`, top, key, depth + 1));
    } else if (value && typeof value === "object" && depth < 12) {
      for (const [name, inner] of Object.entries(value)) {
        walk(inner, path ? `${path}.${name}` : name, top || name, name, depth + 1);
      }
    }
  };
  walk(args, "", "", "", 0);
  return leaves;
}

/** Every substring of `minSharedRun` characters. */
function* grams(text: string): Generator<string> {
  for (let start = 0; start + minSharedRun <= text.length; start++) {
    yield text.slice(start, start + minSharedRun);
  }
}

function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
