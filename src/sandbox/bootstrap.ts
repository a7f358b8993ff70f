/**
 * The fixed worker bootstrap: the ONLY file that runs inside a plugin worker, and the worker's
 * entry module. It imports nothing. Plugin code never is an entry module or a static import (those
 * load with the parent's permissions): the bootstrap receives the plugin's source text after the
 * worker started with its narrowed permissions, turns each file into a blob: URL with a TypeScript
 * media type (Deno strips the types), rewrites relative imports between those files, and imports
 * the entry. Before that it takes stdio and the console away from plugin code, and everything
 * that acts on the host process rather than on computation: signals to its own process (Deno.kill,
 * node:process.kill, Deno's internal ops), signal listeners (which act on the whole process), and
 * the worker's message channel (listeners, postMessage, onmessage, node:worker_threads'
 * parentPort), so plugin code never sees a call id and cannot answer one call in place of another.
 */

type Incoming =
  | { type: "load"; files: Record<string, string>; entry: string; functions: string[] }
  | { type: "call"; id: string; function: string; args: Record<string, unknown> };

/** The parts of the worker global scope the bootstrap uses. */
interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: string, listener: (event: Event & { data?: unknown }) => void): void;
}

const scope = self as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);
const listen = scope.addEventListener.bind(scope);
const stringify = JSON.stringify;
const maxLogChars = 2000;
let exports: Record<string, unknown> | undefined;
let loading: Promise<void> | undefined;

function describe(error: unknown): string {
  try {
    if (error instanceof Error) {
      const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
      return `${error.name}: ${error.message}${cause}`.split("\n")[0];
    }
    return String(error).split("\n")[0];
  } catch {
    return "an unprintable error";
  }
}

function hardenGlobals(): void {
  const denoObject = Deno as unknown as Record<string, unknown>;
  for (const key of ["stdin", "stdout", "stderr"]) {
    try {
      Object.defineProperty(denoObject, key, { value: undefined, configurable: false });
    } catch { /* already gone */ }
  }
  const log = (...parts: unknown[]) => {
    try {
      post({ type: "log", text: parts.map(String).join(" ").slice(0, maxLogChars) });
    } catch { /* not cloneable */ }
  };
  for (const method of ["log", "info", "warn", "error", "debug", "trace", "dir", "table"]) {
    (console as unknown as Record<string, unknown>)[method] = log;
  }
  listen("unhandledrejection", (event) => event.preventDefault());
  listen("error", (event) => event.preventDefault());
}

function refuse(what: string): () => never {
  return () => {
    throw new Error(`${what} is not available to a plugin`);
  };
}

/** Replaces `key` of `target` for good (a plugin cannot put the original back). */
function lock(target: object, key: PropertyKey, value: unknown): void {
  try {
    Object.defineProperty(target, key, { value, configurable: false, writable: false });
  } catch { /* already locked */ }
}

/** Every object of `target`'s prototype chain that has its own `key`. */
function owners(target: object, key: PropertyKey): object[] {
  const found: object[] = [];
  for (let object: object | null = target; object; object = Object.getPrototypeOf(object)) {
    if (Object.hasOwn(object, key)) found.push(object);
  }
  return found;
}

/**
 * Signals and process-wide listeners out of reach. node:process is loaded (and patched) first,
 * since its polyfill takes Deno's internals when it loads; then the internals go.
 */
async function hideProcessControls(): Promise<void> {
  const denoObject = Deno as unknown as Record<PropertyKey, unknown>;
  try {
    const nodeProcess = (await import("node:process")).default as unknown as Record<
      string,
      unknown
    >;
    lock(nodeProcess, "kill", refuse("process.kill"));
    for (const method of ["on", "addListener", "once", "prependListener", "prependOnceListener"]) {
      const original = nodeProcess[method] as (...args: unknown[]) => unknown;
      lock(nodeProcess, method, (event: unknown, ...rest: unknown[]) => {
        if (typeof event === "string" && event.startsWith("SIG")) refuse("a signal listener")();
        return original.call(nodeProcess, event, ...rest);
      });
    }
    const threads = await import("node:worker_threads");
    lock(threads, "parentPort", null);
    lock(threads.default ?? {}, "parentPort", null);
  } catch { /* node compatibility missing: nothing of it to hide */ }
  lock(denoObject, denoObject.internal as PropertyKey, undefined);
  lock(denoObject, "kill", refuse("Deno.kill"));
  lock(denoObject, "addSignalListener", refuse("Deno.addSignalListener"));
  lock(denoObject, "removeSignalListener", refuse("Deno.removeSignalListener"));
}

/** The worker's message channel out of reach (the bootstrap holds its own `post` and `listen`). */
function hideMessageChannel(): void {
  const messageTypes = new Set(["message", "messageerror"]);
  const prototype = EventTarget.prototype;
  const add = prototype.addEventListener;
  const dispatch = prototype.dispatchEvent;
  lock(prototype, "addEventListener", function (this: unknown, ...args: unknown[]) {
    if (this === self && messageTypes.has(String(args[0]))) refuse("a message listener")();
    return Reflect.apply(add, this, args);
  });
  lock(prototype, "dispatchEvent", function (this: unknown, event: Event) {
    if (this === self && messageTypes.has(event?.type)) refuse("a message event")();
    return Reflect.apply(dispatch, this, [event]);
  });
  for (const owner of owners(self, "postMessage")) {
    lock(owner, "postMessage", refuse("postMessage"));
  }
  for (const key of ["onmessage", "onmessageerror"]) {
    for (const owner of owners(self, key)) {
      try {
        Object.defineProperty(owner, key, {
          get: () => null,
          set: refuse(key),
          configurable: false,
        });
      } catch { /* already locked */ }
    }
  }
}

function joinPath(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") {
      if (!parts.length) throw new Error(`import "${specifier}" leaves the plugin folder`);
      parts.pop();
    } else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

/** Type-only imports vanish when Deno strips types; drop them before rewriting (e.g. the SDK). */
const typeImportPattern = /^\s*(?:import|export)\s+type\s[^;]*?from\s*["'][^"'\n]+["'];?/gm;
const importPattern = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"'\n]+)\2/g;

function moduleUrls(files: Record<string, string>, entry: string): string {
  const urls = new Map<string, string>();
  const visiting = new Set<string>();
  const build = (path: string): string => {
    const known = urls.get(path);
    if (known) return known;
    if (!Object.hasOwn(files, path)) throw new Error(`cannot import ./${path}: not in the plugin`);
    if (visiting.has(path)) throw new Error(`cannot load ./${path}: circular imports`);
    visiting.add(path);
    const source = files[path].replace(typeImportPattern, "").replace(
      importPattern,
      (_match, head, quote, specifier) => {
        return `${head}${quote}${build(joinPath(path, specifier))}${quote}`;
      },
    );
    const type = path.endsWith(".ts") ? "application/typescript" : "text/javascript";
    const url = URL.createObjectURL(new Blob([source], { type }));
    urls.set(path, url);
    return url;
  };
  return build(entry);
}

async function load(message: Extract<Incoming, { type: "load" }>): Promise<void> {
  try {
    await hideProcessControls();
    const url = moduleUrls(message.files, message.entry);
    const module = await import(url) as Record<string, unknown>;
    exports = module;
    const available = message.functions.filter((name) => typeof module[name] === "function");
    post({ type: "loaded", functions: available });
  } catch (error) {
    post({ type: "load_error", error: describe(error) });
  }
}

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return stringify(value) ?? "";
}

async function call(message: Extract<Incoming, { type: "call" }>): Promise<void> {
  const id = message.id;
  try {
    await loading;
    const fn = exports && Object.hasOwn(exports, message.function)
      ? exports[message.function]
      : undefined;
    if (typeof fn !== "function") throw new Error(`no exported function ${message.function}`);
    const value = await fn(message.args);
    post({ type: "result", id, ok: true, value: toText(value) });
  } catch (error) {
    post({ type: "result", id, ok: false, error: describe(error) });
  }
}

hardenGlobals();
listen("message", (event) => {
  const message = event.data as Incoming;
  if (message?.type === "load") loading ??= load(message);
  else if (message?.type === "call") void call(message);
});
hideMessageChannel();
post({ type: "booted" });
