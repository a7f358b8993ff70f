import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../src/core/tool_definition.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { catalogEntry, DeferredToolRegistry } from "../../src/runtime/deferred_registry.ts";

const echo = defineTool({
  name: "echo",
  description: "Repeat text",
  input: z.object({ text: z.string() }),
  run: ({ text }) => Promise.resolve(`echo: ${text}`),
});

const options = {
  offered: new Set(["echo"]),
  context: { kind: "chat" as const, interactive: false, signal: new AbortController().signal },
  maxResultChars: 1000,
  elapsed: () => 0,
};

Deno.test("deferred registry: offers the catalog, loads on the first call, retries a failed load", async () => {
  let loads = 0;
  const registry = new DeferredToolRegistry([catalogEntry(echo)], () => {
    loads++;
    if (loads === 1) return Promise.reject(new Error("database is locked"));
    const real = new ToolRegistry();
    real.register(echo);
    return Promise.resolve({ registry: real, gates: [] });
  });
  assert.deepEqual(registry.list().map((tool) => tool.name), ["echo"], "the catalog is offered");
  assert.equal(loads, 0, "nothing loads before a call");
  const call = { id: "c1", name: "echo", arguments: '{"text":"hi"}' };
  const first = await registry.execute(call, options);
  assert.equal(first.result.outcome, "error");
  assert.match(first.result.text, /Cannot load the tools: database is locked/);
  const second = await registry.execute({ ...call, id: "c2" }, options);
  assert.equal(second.result.outcome, "ok", "the next call loads again");
  assert.equal(second.result.text, "echo: hi");
  await registry.execute({ ...call, id: "c3" }, options);
  assert.equal(loads, 2, "loaded once it worked");
});
