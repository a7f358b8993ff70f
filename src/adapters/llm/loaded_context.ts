/**
 * The context a server actually loaded for a model: Ollama's `/api/ps` (`context_length` of the
 * running model), else the `num_ctx` its Modelfile sets (`/api/show` parameters: what Ollama loads
 * it with), else llama-server's `/props` (`default_generation_settings.n_ctx`). An OpenAI-compatible
 * request cannot set the window, so this is the window; `radar doctor` compares it with num_ctx.
 */
import { parseBody } from "./settings.ts";
import { send, type TransportOptions } from "./transport.ts";

/** A loaded context and where it was read. */
export interface LoadedContext {
  tokens: number;
  /** "/api/ps", "/api/show num_ctx" or "/props". */
  source: string;
}

/** True when `name` (an `/api/ps` entry) is `model`, `model:latest` being the same as `model`. */
export function sameModel(name: unknown, model: string): boolean {
  if (typeof name !== "string") return false;
  const plain = (value: string) => value.replace(/:latest$/, "");
  return plain(name) === plain(model);
}

/** The running model's `context_length` in an `/api/ps` answer. */
export function psContextOf(body: unknown, model: string): number | undefined {
  const models = (body as { models?: unknown })?.models;
  if (!Array.isArray(models)) return undefined;
  const entry = models.find((item) =>
    sameModel(item?.name, model) || sameModel(item?.model, model)
  );
  const length = entry?.context_length;
  return typeof length === "number" && length > 0 ? length : undefined;
}

/** `num_ctx` in an `/api/show` answer's Modelfile parameters. */
export function showNumCtxOf(body: unknown): number | undefined {
  const parameters = (body as { parameters?: unknown })?.parameters;
  if (typeof parameters !== "string") return undefined;
  const match = parameters.match(/(?:^|\n)\s*num_ctx\s+(\d+)/);
  return match ? Number(match[1]) : undefined;
}

/** llama-server's slot context in a `/props` answer. */
export function propsContextOf(body: unknown): number | undefined {
  const settings = (body as { default_generation_settings?: { n_ctx?: unknown } })
    ?.default_generation_settings;
  const value = settings?.n_ctx ?? (body as { n_ctx?: unknown })?.n_ctx;
  return typeof value === "number" && value > 0 ? value : undefined;
}

async function ask(
  url: string,
  init: { method: "GET" | "POST"; body?: unknown },
  transport: TransportOptions,
  signal?: AbortSignal,
): Promise<unknown> {
  try {
    const answer = await send(url, init, transport, signal);
    return answer.status === 200 ? parseBody(answer.text, url) : undefined;
  } catch {
    return undefined;
  }
}

/** Only `/api/ps`: the context the running model was loaded with (undefined: not running). */
export async function runningContext(
  origin: string,
  model: string,
  transport: TransportOptions,
  signal?: AbortSignal,
): Promise<number | undefined> {
  return psContextOf(await ask(`${origin}/api/ps`, { method: "GET" }, transport, signal), model);
}

/** The context the server at `origin` loaded (or will load) `model` with; undefined: it does not say. */
export async function loadedContext(
  origin: string,
  model: string,
  transport: TransportOptions,
  signal?: AbortSignal,
): Promise<LoadedContext | undefined> {
  const running = await runningContext(origin, model, transport, signal);
  if (running) return { tokens: running, source: "/api/ps" };
  const show = showNumCtxOf(
    await ask(`${origin}/api/show`, { method: "POST", body: { model } }, transport, signal),
  );
  if (show) return { tokens: show, source: "/api/show num_ctx" };
  const props = propsContextOf(await ask(`${origin}/props`, { method: "GET" }, transport, signal));
  return props ? { tokens: props, source: "/props" } : undefined;
}
