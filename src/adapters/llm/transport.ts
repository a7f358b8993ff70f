/** HTTP to an LLM server: timeouts, cancellation, connection errors as `LlmError`s. */
import { LlmError } from "../../core/errors.ts";
import { readBoundedText, realTimers, type Timers } from "./bounded_body.ts";

/** How to reach the server. */
export interface TransportOptions {
  fetch: typeof fetch;
  /** Bearer token, sent when non-empty. */
  apiKey: string;
  connectTimeoutMs: number;
  /** The whole exchange, body included (llm.response_timeout_seconds). */
  responseTimeoutMs: number;
  /** Until the response's headers (llm.first_byte_timeout_seconds); default: the whole. */
  firstByteTimeoutMs?: number;
  /** Longest silence while the body arrives (llm.idle_timeout_seconds); default 30 s. */
  idleTimeoutMs?: number;
  /** Body size cap (llm.max_response_mib); default 16 MiB. */
  maxResponseBytes?: number;
  /** Timers for the three timeouts; default real ones. */
  timers?: Timers;
  /** Checks that a TCP connection to the URL's host opens within the timeout. */
  probe?: (url: URL, timeoutMs: number) => Promise<void>;
  /** What to tell the user when the server cannot be reached. */
  startHint: string;
  /** What the server is called in messages (default "model server"). */
  serverLabel?: string;
}

/** A raw HTTP answer. */
export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
}

/** Default body cap: 16 MiB. */
const defaultMaxResponseBytes = 16 * 1024 * 1024;

/** Opens and closes a TCP connection to `url`'s host and port, within `timeoutMs`. */
export async function tcpProbe(url: URL, timeoutMs: number): Promise<void> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const connecting = Deno.connect({ hostname, port });
  const deadline = AbortSignal.timeout(timeoutMs);
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

/**
 * Sends one request and reads the body streamed under the size cap, with separate first-byte,
 * idle and total timeouts. Throws `LlmError` for transport failures; returns any HTTP status.
 */
export async function send(
  url: string,
  init: { method: "GET" | "POST"; body?: unknown },
  options: TransportOptions,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  const target = new URL(url);
  const origin = `${target.protocol}//${target.host}`;
  if (signal?.aborted) throw cancelled();
  const timers = options.timers ?? realTimers;
  const controller = new AbortController();
  let stopped: LlmError | undefined;
  const stop = (reason: LlmError) => {
    stopped ??= reason;
    controller.abort(reason);
  };
  const cancelTotal = timers.start(options.responseTimeoutMs, () =>
    stop(
      new LlmError(
        "timeout",
        `${origin} did not answer within ${options.responseTimeoutMs / 1000} s ` +
          `(llm.response_timeout_seconds; a cold model can take minutes to load).`,
      ),
    ));
  const firstByteMs = options.firstByteTimeoutMs ?? options.responseTimeoutMs;
  const cancelFirstByte = firstByteMs < options.responseTimeoutMs
    ? timers.start(firstByteMs, () =>
      stop(
        new LlmError(
          "timeout",
          `${origin} sent nothing within ${firstByteMs / 1000} s ` +
            `(llm.first_byte_timeout_seconds; a cold model can take minutes to load).`,
        ),
      ))
    : () => {};
  const combined = AbortSignal.any([controller.signal, ...(signal ? [signal] : [])]);
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  try {
    const request = options.fetch(url, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: combined,
    }).then(async (response) => {
      cancelFirstByte();
      const text = await readBoundedText(response, {
        maxBytes: options.maxResponseBytes ?? defaultMaxResponseBytes,
        idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
        timers,
        origin,
        stop,
      });
      return { status: response.status, text, headers: response.headers };
    });
    if (!options.probe) return await request;
    // The probe runs beside the request (no extra round trip before it): it only matters when the
    // connection cannot open within the connect timeout, and then it cancels the request.
    const connectFailure = options.probe(target, options.connectTimeoutMs).then(
      () => new Promise<never>(() => {}),
      (error) => {
        // Only a connect that hangs is the probe's to report. A refusal may be one address of
        // several (`localhost` → ::1 first, Ollama on 127.0.0.1 only); fetch tries them all.
        if (!(error instanceof Deno.errors.TimedOut)) return new Promise<never>(() => {});
        const failure = unreachable(origin, error, options);
        stop(failure);
        request.catch(() => {});
        throw failure;
      },
    );
    connectFailure.catch(() => {}); // settled after the race is decided: never unhandled
    return await Promise.race([request, connectFailure]);
  } catch (error) {
    if (error instanceof LlmError) throw error;
    if (stopped) throw stopped;
    if (signal?.aborted) throw cancelled();
    throw unreachable(origin, error, options);
  } finally {
    cancelTotal();
    cancelFirstByte();
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
    `Cannot reach the ${options.serverLabel ?? "model server"} at ${origin}: ${reason}. ` +
      options.startHint,
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
