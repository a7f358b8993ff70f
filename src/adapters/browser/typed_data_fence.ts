/**
 * Where data typed into a page may go. Typing into a page is sending to the page's origin (the
 * run guard decided that send before the fill ran); from the first fill on, for the rest of the
 * session, the browser may reach only the origins typed into and the targets of submissions the
 * person approved. Every other request is aborted in the browser (the session's route) and every
 * other connection refused by the guarded proxy (which also closes the tunnels already open to
 * other places: a WebSocket opened before the typing cannot carry it out afterwards).
 *
 * The fence does not look for the typed text in what leaves: a page's script can encode it any
 * way it likes, so no request to another origin is safe once something was typed.
 */
import { originOf } from "../../core/browser.ts";

/** One session's fence (shared by its route rules and its proxy). */
export class TypedDataFence {
  #origins?: Set<string>;
  #listeners: Array<() => void> = [];

  /** True once something was typed into a page of the session. */
  get active(): boolean {
    return this.#origins !== undefined;
  }

  /** The origins typed data may go to, in order (empty before anything was typed). */
  get origins(): string[] {
    return [...this.#origins ?? []];
  }

  /** Calls `listener` whenever the fence starts or changes (the proxy closes tunnels then). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Starts the fence, letting typed data go to `url`'s origin (a page without one, such as
   * about:blank, starts it with nothing allowed).
   */
  allow(url: string): void {
    const origin = originOf(url);
    const before = this.#origins?.size;
    this.#origins ??= new Set();
    if (origin) this.#origins.add(origin);
    if (before === this.#origins.size) return;
    for (const listener of this.#listeners) listener();
  }

  /** True when the browser may request `url`: nothing typed yet, or its origin is inside. */
  allowsUrl(url: string): boolean {
    if (!this.#origins) return true;
    const origin = originOf(url);
    // about:, data: and blob: reach no server; other schemes the proxy refuses anyway.
    if (origin === undefined) return !/^(https?|wss?|ftp):/i.test(url);
    return this.#origins.has(origin);
  }

  /**
   * True when the proxy may open a connection to `url` (`https://host:port/` for a CONNECT,
   * the request's URL for plain http): its host and port belong to an origin inside.
   */
  allowsConnection(url: URL): boolean {
    if (!this.#origins) return true;
    const wanted = `${url.hostname}:${portOf(url)}`;
    return [...this.#origins].some((origin) => {
      const inside = new URL(origin);
      return `${inside.hostname}:${portOf(inside)}` === wanted;
    });
  }
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" || url.protocol === "wss:" ? "443" : "80");
}
