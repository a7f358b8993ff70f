/**
 * A small client of V8's inspector (a process started with `--inspect=127.0.0.1:PORT`): the
 * scripts it has loaded and a heap snapshot after a full collection. Used by `deno task bench
 * lean` to attribute an idle daemon's heap; the inspector's own bytes are left out by sampling RSS
 * without it.
 */
import type { HeapSnapshotJson } from "./heap_snapshot.ts";

/** One script V8 parsed: its URL and length in characters. */
export interface LoadedScript {
  url: string;
  length: number;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** What the inspector of one process answers. */
export interface InspectedProcess {
  scripts: LoadedScript[];
  snapshot: HeapSnapshotJson;
  /** V8's heap in use and committed, in bytes. */
  heapUsed: number;
  heapTotal: number;
}

/** Connects to the inspector on `port`, lists the scripts and takes one heap snapshot. */
export async function inspect(port: number, timeoutMs = 30_000): Promise<InspectedProcess> {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as Array<
    { webSocketDebuggerUrl: string }
  >;
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let lastId = 0;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  const chunks: string[] = [];
  const scripts: LoadedScript[] = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id) {
      waiting.get(message.id)?.(message.result ?? {});
      waiting.delete(message.id);
    } else if (message.method === "HeapProfiler.addHeapSnapshotChunk") {
      chunks.push(message.params.chunk);
    } else if (message.method === "Debugger.scriptParsed") {
      scripts.push({ url: message.params.url, length: message.params.length });
    }
  };
  const call = (method: string, params: Record<string, unknown> = {}) => {
    const { promise, resolve, reject } = Promise.withResolvers<Record<string, unknown>>();
    const id = ++lastId;
    waiting.set(id, resolve);
    const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), timeoutMs);
    socket.send(JSON.stringify({ id, method, params }));
    return promise.finally(() => clearTimeout(timer));
  };
  try {
    await call("Debugger.enable");
    await call("Debugger.disable");
    await call("HeapProfiler.collectGarbage");
    const usage = await call("Runtime.getHeapUsage") as { usedSize: number; totalSize: number };
    await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    return {
      scripts,
      snapshot: JSON.parse(chunks.join("")),
      heapUsed: usage.usedSize,
      heapTotal: usage.totalSize,
    };
  } finally {
    socket.close();
  }
}
