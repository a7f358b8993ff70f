/** HTTP to an LLM server: timeouts, cancellation, connection errors as `LlmError`s. */
import { LlmError } from "../../core/errors.ts";

/** How to reach the server. */
export interface TransportOptions {
  fetch: typeof fetch;
  /** Bearer token, sent when non-empty. */
  apiKey: string;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Checks that a TCP connection to the URL's host opens within the timeout. */
  probe?: (url: URL, timeoutMs: number) => Promise<void>;
  /** What to tell the user when the server cannot be reached. */
  startHint: string;
}

/** A raw HTTP answer. */
export interface HttpAnswer {
  status: number;
  text: string;
}

/** Opens and closes a TCP connection to `url`'s host and port, within `timeoutMs`. */
export async function tcpProbe(url: URL, timeoutMs: number): Promise<void> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const connecting = Deno.connect({ hostname, port });
  const deadline = AbortSignal.timeout(timeoutMs); // not setTimeout: see `send`
  const timeout = new Promise<never>((_, reject) => {
    deadline.addEventListener("abort", () => {
      reject(new Deno.errors.TimedOut(`no connection within ${timeoutMs} ms`));
    });
  });
  timeout.catch(() => {}); // fires after a successful connect too: never unhandled
  try {
    (await Promise.race([connecting, timeout])).close();
  } finally {
    connecting.then((connection) => {
      try {
        connection.close();
      } catch { /* already closed */ }
    }, () => {});
  }
}

/** Sends one request; throws `LlmError` for transport failures, returns any HTTP status. */
export async function send(
  url: string,
  init: { method: "GET" | "POST"; body?: unknown },
  options: TransportOptions,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  const target = new URL(url);
  const origin = `${target.protocol}//${target.host}`;
  if (signal?.aborted) throw cancelled();
  // AbortSignal.timeout, not setTimeout: the first setTimeout of a Deno 2.9 process costs ~9 ms,
  // paid before the first request goes out. Its timer is unreferenced; the pending request keeps
  // the process alive while it waits.
  const timeout = AbortSignal.timeout(options.responseTimeoutMs);
  const unreachableServer = new AbortController();
  const combined = AbortSignal.any(
    [timeout, unreachableServer.signal, ...(signal ? [signal] : [])],
  );
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  try {
    const request = options.fetch(url, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: combined,
    }).then(async (response) => ({ status: response.status, text: await response.text() }));
    if (!options.probe) return await request;
    // The probe runs beside the request (no extra round trip before it): it only matters when the
    // connection cannot open within the connect timeout, and then it cancels the request.
    const connectFailure = options.probe(target, options.connectTimeoutMs).then(
      () => new Promise<never>(() => {}),
      (error) => {
        // Only a connect that hangs is the probe's to report. A refusal may be one address of
        // several (`localhost` → ::1 first, Ollama on 127.0.0.1 only); fetch tries them all.
        if (!(error instanceof Deno.errors.TimedOut)) return new Promise<never>(() => {});
        unreachableServer.abort();
        request.catch(() => {});
        throw unreachable(origin, error, options);
      },
    );
    connectFailure.catch(() => {}); // settled after the race is decided: never unhandled
    return await Promise.race([request, connectFailure]);
  } catch (error) {
    if (error instanceof LlmError) throw error;
    if (signal?.aborted) throw cancelled();
    if (timeout.aborted) {
      throw new LlmError(
        "timeout",
        `${origin} did not answer within ${options.responseTimeoutMs / 1000} s ` +
          `(llm.response_timeout_seconds; a cold model can take minutes to load).`,
        false,
        { cause: error },
      );
    }
    throw unreachable(origin, error, options);
  }
}

function cancelled(): LlmError {
  return new LlmError("cancelled", "Cancelled.");
}

function unreachable(origin: string, error: unknown, options: TransportOptions): LlmError {
  const reason = error instanceof Deno.errors.TimedOut
    ? `no connection within ${options.connectTimeoutMs / 1000} s (llm.connect_timeout_seconds)`
    : error instanceof Deno.errors.ConnectionRefused || /refused/i.test(messageChain(error))
    ? "connection refused"
    : String((error as Error)?.message ?? error).split("\n")[0];
  return new LlmError(
    "unreachable",
    `Cannot reach the model server at ${origin}: ${reason}. ${options.startHint}`,
    true,
    { cause: error },
  );
}

/** An error's message and its causes' ("fetch failed" keeps "Connection refused" in its cause). */
function messageChain(error: unknown): string {
  const parts: string[] = [];
  for (let at = error, depth = 0; at && depth < 5; depth++) {
    parts.push(String((at as Error).message ?? at));
    at = (at as Error).cause;
  }
  return parts.join(" | ");
}
