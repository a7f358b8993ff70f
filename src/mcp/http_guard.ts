/**
 * The fetch an HTTP MCP server is reached through: only its approved hosts, no redirects, and a
 * public name that resolves to a private address is refused (through the network guard), unless
 * the approved host is itself local (a literal private address or localhost). The request goes
 * to an address the guard checked (pinned, as fetch_url does), so DNS cannot answer differently
 * between the check and the connect.
 */
import { isPrivateAddress } from "../adapters/network/address_policy.ts";
import {
  checkUrlAddresses,
  denoResolver,
  type Resolver,
} from "../adapters/network/network_guard.ts";
import {
  createPinnedFetch,
  fetchFromChecked,
  type PinnedFetch,
} from "../adapters/network/pinned_fetch.ts";

/** A fetch that only reaches `hosts`; a response body past `maxBytes` fails the request. */
export function guardedMcpFetch(
  hosts: readonly string[],
  fetcher: typeof fetch = fetch,
  resolve: Resolver = denoResolver,
  maxBytes = 4_000_000,
  pinned: PinnedFetch = createPinnedFetch(fetcher),
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const allowed = new Set(hosts.map((host) => host.toLowerCase()));
  return async (url, init) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (!allowed.has(host)) {
      throw new Error(`${host} is not an approved host of this MCP server`);
    }
    const local = host === "localhost" || isPrivateAddress(host);
    const check = await checkUrlAddresses(target, {
      allowPrivate: local,
      resolve,
      allowHint: "a local MCP server is reached by its address or localhost in its url",
    });
    if (check.problem !== undefined) throw new Error(check.problem);
    let opened;
    try {
      opened = await fetchFromChecked(target, check.addresses, {
        ...init,
        redirect: "error",
      }, { fetch: fetcher, pinned });
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new Error(unreachable(target, error));
    }
    const response = opened.response;
    if (!response.body) {
      opened.close();
      return response;
    }
    return new Response(
      closingWhenDone(response.body.pipeThrough(byteCap(maxBytes)), opened.close),
      {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      },
    );
  };
}

/**
 * "cannot reach http://127.0.0.1:8765/mcp: connection refused": the address and what went wrong
 * in words (refused, timed out, no such host, TLS), not the runtime's "fetch failed".
 */
function unreachable(target: URL, error: unknown): string {
  const where = `${target.origin}${target.pathname}`;
  const text = errorChain(error);
  const reason = /refused/i.test(text)
    ? "connection refused (is the server running?)"
    : /timed? ?out|TimeoutError/i.test(text)
    ? "timed out"
    : /dns|resolve|lookup|name or service not known|no address/i.test(text)
    ? "cannot resolve its host"
    : /certificate|tls|ssl/i.test(text)
    ? `TLS failed (${text.split("\n")[0].slice(0, 160)})`
    : /reset|broken pipe|closed/i.test(text)
    ? "the connection was closed"
    : text.split("\n")[0].slice(0, 200) || "unknown error";
  return `cannot reach ${where}: ${reason}`;
}

/** An error's message with its causes (Deno puts the OS reason in `cause`). */
function errorChain(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    parts.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join("\n");
}

/** The same bytes; `close` (the pinned client) runs when the stream ends, fails or is cancelled. */
function closingWhenDone(
  body: ReadableStream<Uint8Array>,
  close: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          close();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {});
      close();
    },
  });
}

/** Passes bytes through until `maxBytes`, then errors the stream. */
function byteCap(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        controller.error(new Error(`the MCP server sent more than ${maxBytes} bytes`));
      } else controller.enqueue(chunk);
    },
  });
}
