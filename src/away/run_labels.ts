/**
 * The labels of a run, from what it READ (never from following text through the model, which can
 * encode anything):
 *
 * - integrity: trusted text is the user's own message, the task's text and the config; everything
 *   else a run reads (tool results, events, piped input, outside text in the request) makes the run
 *   untrusted;
 * - confidentiality: private data is files, mail, calendars, memory, money, notes, command output
 *   and MCP or plugin results the user did not declare public; the web and the run's own trusted
 *   text are public. Reading private data makes the run private.
 *
 * Each tool declares the label of its results (`Tool.results`); text in untrusted markers
 * (heartbeat events, piped input) is labelled by its marker's source. Pure.
 */
import type { ReadSources } from "../core/chat_model.ts";
import type { ResultLabel } from "../core/tool.ts";

/** Marker sources whose text is public (a URL monitor's diff is a web page). */
export const publicMarkerSources: ReadonlySet<string> = new Set(["web events"]);

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

/** What one run has read: its trusted texts and the sources that made it untrusted or private. */
export class RunLabels {
  readonly #trusted: string[] = [];
  readonly #untrusted = new Set<string>();
  readonly #private = new Set<string>();

  /** Text the user, a task or the config wrote (NFC: the same text however it was composed). */
  addTrusted(text: string): void {
    if (text.trim()) this.#trusted.push(text.normalize("NFC"));
  }

  /** Text from outside, read from `source` ("tool fetch_url", "events"), with its label. */
  read(source: string, label: ResultLabel): void {
    if (label === "own_words") return;
    this.#untrusted.add(source);
    if (label === "private") this.#private.add(source);
  }

  /**
   * A message Radar or the user wrote, with untrusted blocks in markers (a heartbeat's events,
   * piped input): the text outside the markers is trusted, each block is read from its source.
   */
  addMessage(message: string): void {
    const { trusted, untrusted } = splitUntrusted(message);
    this.addTrusted(trusted);
    for (const block of untrusted) {
      if (!block.text.trim()) continue;
      this.read(block.source, publicMarkerSources.has(block.source) ? "public" : "private");
    }
  }

  /**
   * Words a run wrote after reading `sources` (an assistant message replayed from history): they
   * may hold any of it, so reading them is reading those sources again, with their labels.
   */
  readAgain(sources: ReadSources): void {
    for (const source of sources.untrusted) {
      this.read(source, sources.private.includes(source) ? "private" : "public");
    }
    for (const source of sources.private) this.read(source, "private");
  }

  /** What the run has read so far, by source. */
  get sources(): ReadSources {
    return { untrusted: this.untrustedSources, private: this.privateSources };
  }

  /** The trusted texts read so far. */
  get trusted(): readonly string[] {
    return this.#trusted;
  }

  /** True once the run has read anything from outside. */
  get untrusted(): boolean {
    return this.#untrusted.size > 0;
  }

  /** True once the run has read private data. */
  get private(): boolean {
    return this.#private.size > 0;
  }

  /** Where the untrusted text came from, each source once, in reading order. */
  get untrustedSources(): string[] {
    return [...this.#untrusted];
  }

  /** Where the private data came from, each source once, in reading order. */
  get privateSources(): string[] {
    return [...this.#private];
  }
}
