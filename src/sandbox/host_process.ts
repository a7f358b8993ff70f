/**
 * The plugin host process (Radar started again in its hidden plugin-host mode, one process per
 * plugin). It reads the plugin's code and grant from stdin, drops every permission the grant does
 * not need, starts the fixed bootstrap in a Web Worker with exactly the grant, and relays calls.
 * stdout carries protocol frames only; the plugin's console goes to stderr, capped.
 */
import {
  type ChildMessage,
  decodeParentLine,
  encodeChildFrame,
  type ParentMessage,
} from "./protocol.ts";
import { type PluginGrant, workerPermissions } from "./permissions.ts";

const encoder = new TextEncoder();
const maxLogChars = 2000;
let writing = Promise.resolve();

function send(message: ChildMessage): void {
  const bytes = encoder.encode(encodeChildFrame(message));
  writing = writing.then(() => Deno.stdout.write(bytes).then(() => undefined)).catch(() =>
    Deno.exit(1)
  );
}

/** Revokes whole permission kinds the grant does not use (the binary may run with broad flags). */
export async function dropPermissions(grant: PluginGrant): Promise<void> {
  const bootstrap = new URL("./bootstrap.ts", import.meta.url);
  if (bootstrap.protocol === "file:") {
    await Deno.permissions.revoke({ name: "read", path: bootstrap });
  }
  const kinds: Deno.PermissionName[] = ["run", "ffi", "sys"];
  if (!grant.read.length) kinds.push("read");
  if (!grant.write.length) kinds.push("write");
  if (!grant.net.length) kinds.push("net");
  if (!grant.env.length) kinds.push("env");
  for (const name of kinds) await Deno.permissions.revoke({ name } as Deno.PermissionDescriptor);
}

function startWorker(grant: PluginGrant): Promise<Worker> {
  const worker = new Worker(new URL("./bootstrap.ts", import.meta.url), {
    type: "module",
    name: "radar-plugin",
    deno: { permissions: workerPermissions(grant) },
  });
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent) => {
      if (event.data?.type !== "booted") return;
      worker.removeEventListener("message", onMessage);
      resolve(worker);
    };
    worker.addEventListener("message", onMessage);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message));
    };
  });
}

function relay(worker: Worker, functions: string[]): void {
  worker.onmessage = (event: MessageEvent) => {
    const data = event.data as Record<string, unknown> | null;
    if (!data || typeof data !== "object") return;
    if (data.type === "loaded" && Array.isArray(data.functions)) {
      send({
        type: "ready",
        functions: data.functions.filter((name): name is string =>
          typeof name === "string" && functions.includes(name)
        ),
      });
    } else if (data.type === "load_error") {
      send({ type: "load_error", error: String(data.error).slice(0, 2000) });
    } else if (data.type === "result" && typeof data.id === "string") {
      send(
        data.ok === true
          ? { type: "result", id: data.id, ok: true, value: String(data.value) }
          : { type: "result", id: data.id, ok: false, error: String(data.error).slice(0, 2000) },
      );
    } else if (data.type === "log") {
      console.error(`[plugin] ${String(data.text).slice(0, maxLogChars)}`);
    }
  };
  // An uncaught error inside the worker would otherwise end this process with a stack trace.
  worker.onerror = (event) => {
    event.preventDefault();
    send({ type: "load_error", error: `plugin crashed: ${event.message}`.slice(0, 2000) });
    void writing.then(() => Deno.exit(1));
  };
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
    }
  }
}

/** Runs the plugin host until stdin closes. */
export async function runPluginHost(): Promise<void> {
  let worker: Worker | undefined;
  for await (const line of lines(Deno.stdin.readable)) {
    const message: ParentMessage | undefined = decodeParentLine(line);
    if (!message) continue;
    if (message.type === "load" && !worker) {
      try {
        worker = await startWorker(message.grant);
        await dropPermissions(message.grant);
      } catch (error) {
        send({
          type: "load_error",
          error: `cannot start the plugin worker: ${(error as Error).message}`,
        });
        await writing;
        Deno.exit(1);
      }
      relay(worker, message.functions);
      worker.postMessage({
        type: "load",
        files: message.files,
        entry: message.entry,
        functions: message.functions,
      });
    } else if (message.type === "call" && worker) {
      worker.postMessage(message);
    }
  }
  await writing;
  Deno.exit(0);
}

if (import.meta.main) await runPluginHost();
