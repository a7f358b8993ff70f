/**
 * Issue 23, class 8: a sandboxed plugin reaches computation, not its host process. It cannot
 * signal its own host (Deno.kill, node:process, Deno's internal ops), cannot install signal
 * listeners (which act on the whole process), and cannot see the host's messages to the worker
 * or post its own: call ids stay unseen, so it cannot answer one call in place of another.
 */
import assert from "node:assert/strict";
import { inlineCode, startProcess } from "./helpers.ts";

const source = `
const seen = [];
const listen = (event) => {
  const data = event.data;
  if (data && data.type === "call") {
    seen.push(data.id);
    if (data.function === "honest") {
      try { self.postMessage({ type: "result", id: data.id, ok: true, value: "forged" }); } catch {}
      try {
        const post = Object.getPrototypeOf(self).postMessage ?? EventTarget.prototype.postMessage;
        post?.call(self, { type: "result", id: data.id, ok: true, value: "forged" });
      } catch {}
    }
  }
};
export function snoop() {
  const tries = [];
  for (const [name, install] of [
    ["addEventListener", () => self.addEventListener("message", listen)],
    ["onmessage", () => { self.onmessage = listen; }],
    ["prototype", () => EventTarget.prototype.addEventListener.call(self, "message", listen)],
  ]) {
    try { install(); tries.push(name); } catch { /* refused */ }
  }
  return tries.join(",");
}
export function honest() { return "honest"; }
export function seen_ids() { return String(seen.length); }
export function deno_kill() { Deno.kill(Deno.pid, "SIGUSR1"); return "signalled"; }
export function signal_listener() { Deno.addSignalListener("SIGTERM", () => {}); return "listening"; }
export async function node_kill() {
  const process = (await import("node:" + "process")).default;
  process.kill(process.pid, "SIGKILL");
  return "signalled";
}
export async function node_signal() {
  const process = (await import("node:" + "process")).default;
  process.on("SIGTERM", () => {});
  return "listening";
}
export function internal_kill() {
  const core = Deno[Deno.internal]?.core;
  core.ops.op_kill(Deno.pid, "SIGKILL", "kill");
  return "signalled";
}
export async function parent_port() {
  const threads = await import("node:" + "worker_threads");
  const port = threads.parentPort;
  if (!port) return "no port";
  port.on("message", (data) => listen({ data }));
  port.postMessage({ type: "result", id: "guess", ok: true, value: "forged" });
  return "port";
}
export async function node_path() {
  const path = await import("node:" + "path");
  return path.join("a", "b");
}
`;

const functions = [
  "snoop",
  "honest",
  "seen_ids",
  "deno_kill",
  "signal_listener",
  "node_kill",
  "node_signal",
  "internal_kill",
  "node_path",
  "parent_port",
];

Deno.test("a sandboxed plugin cannot signal its host or listen for signals", async () => {
  const host = startProcess(inlineCode("signals", source, functions), undefined, {
    callTimeoutMs: 5000,
  });
  try {
    for (const name of ["deno_kill", "signal_listener", "node_kill", "node_signal"]) {
      const result = await host.call(name, {});
      assert.equal(result.outcome, "error", `${name}: ${result.text}`);
      assert.match(result.text, /not available to a plugin/, name);
      assert.equal(host.starts, 1, `${name} ended its host`);
    }
    const internal = await host.call("internal_kill", {});
    assert.equal(internal.outcome, "error", internal.text);
    assert.equal(host.starts, 1, "the internal ops ended the host");
    assert.deepEqual(await host.call("node_path", {}), { outcome: "ok", text: "a/b" });
  } finally {
    await host.stop();
  }
});

Deno.test("a sandboxed plugin cannot see call ids or answer a call in place of its function", async () => {
  const host = startProcess(inlineCode("snooper", source, functions));
  try {
    assert.deepEqual(await host.call("snoop", {}), { outcome: "ok", text: "" });
    const port = await host.call("parent_port", {});
    assert.notDeepEqual(port, { outcome: "ok", text: "port" }, "node:worker_threads' parentPort");
    assert.deepEqual(await host.call("honest", {}), { outcome: "ok", text: "honest" });
    assert.deepEqual(await host.call("seen_ids", {}), { outcome: "ok", text: "0" });
  } finally {
    await host.stop();
  }
});
