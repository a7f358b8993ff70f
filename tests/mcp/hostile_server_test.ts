/** A hostile MCP server in the sandbox: every escape attempt fails and Radar keeps serving. */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Tool } from "../../src/core/tool.ts";
import { processList } from "../tools/exec/exec_harness.ts";
import { runTool } from "./mcp_harness.ts";
import { type Harness, startHostile } from "./hostile_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

async function stillServes(tools: Tool[]): Promise<void> {
  const echo = await runTool(tools, "mcp_evil__echo", { text: "alive" });
  assert.equal(echo.outcome, "ok", echo.text);
  assert.equal(echo.text, "echo alive");
}

function hostileTest(name: string, fn: (harness: Harness) => Promise<void>) {
  Deno.test(needing([onLinux, "bubblewrap"], {
    name,
    fn: async () => {
      const harness = await startHostile();
      try {
        await fn(harness);
      } finally {
        await harness.source.close();
        harness.home.dispose();
      }
    },
  }));
}

hostileTest("a hostile server cannot read ~/.ssh or write outside its folder", async (h) => {
  const key = await runTool(h.tools, "mcp_evil__read_file", {
    path: join(h.home.home, ".ssh", "id_ed25519"),
  });
  assert.match(key.text, /^BLOCKED/);
  assert.doesNotMatch(key.text, /PRIVATE/);
  const listing = await runTool(h.tools, "mcp_evil__list_folder", {
    path: join(h.home.home, ".ssh"),
  });
  assert.doesNotMatch(listing.text, /id_ed25519/);
  const outside = join(h.home.home, "planted.txt");
  const write = await runTool(h.tools, "mcp_evil__write_file", { path: outside, content: "x" });
  // Under /tmp (a checkout there) the write lands in the sandbox's private, discarded /tmp.
  if (!outside.startsWith("/tmp/")) assert.match(write.text, /^BLOCKED/);
  assert.throws(() => Deno.statSync(outside), "nothing is written outside its folder");
  const inside = await runTool(h.tools, "mcp_evil__write_file", {
    path: join(h.folder, "ok.txt"),
    content: "fine",
  });
  assert.match(inside.text, /^DONE/);
  assert.equal(Deno.readTextFileSync(join(h.folder, "ok.txt")), "fine");
  await stillServes(h.tools);
});

hostileTest(
  "the rest of home is hidden; a read-only folder is readable, not writable",
  async (h) => {
    // Written after the tools were registered, before the server starts: hidden all the same.
    Deno.writeTextFileSync(join(h.home.home, "late.txt"), "written later");
    const late = await runTool(h.tools, "mcp_evil__read_file", {
      path: join(h.home.home, "late.txt"),
    });
    assert.match(late.text, /^BLOCKED/);
    const diary = await runTool(h.tools, "mcp_evil__read_file", {
      path: join(h.home.home, "diary.txt"),
    });
    assert.match(diary.text, /^BLOCKED/);
    const home = await runTool(h.tools, "mcp_evil__list_folder", { path: h.home.home });
    assert.match(home.text, /^DONE /);
    // Home is an empty tmpfs with only the approved folders bound back.
    assert.deepEqual(home.text.slice(5).split(",").sort(), ["granted", "program", "reference"]);
    // Created while the server runs: invisible too (a listing taken at start would miss it).
    Deno.mkdirSync(join(h.home.home, "new-folder"));
    Deno.writeTextFileSync(join(h.home.home, "new-folder", "fresh.txt"), "fresh secret");
    Deno.writeTextFileSync(join(h.home.home, "fresh.txt"), "fresh secret");
    for (const path of ["fresh.txt", join("new-folder", "fresh.txt")]) {
      const fresh = await runTool(h.tools, "mcp_evil__read_file", {
        path: join(h.home.home, path),
      });
      assert.match(fresh.text, /^BLOCKED/, path);
    }
    const planted = await runTool(h.tools, "mcp_evil__write_file", {
      path: join(h.home.home, "planted.txt"),
      content: "x",
    });
    assert.match(planted.text, /^BLOCKED/, "the empty home is read-only");
    // /etc holds only what programs need; /opt is empty.
    const hosts = await runTool(h.tools, "mcp_evil__read_file", { path: "/etc/hosts" });
    assert.match(hosts.text, /^DONE /, "what resolving names needs stays");
    for (const path of ["/etc/hostname", "/etc/machine-id", "/etc/shadow"]) {
      const hidden = await runTool(h.tools, "mcp_evil__read_file", { path });
      assert.match(hidden.text, /^BLOCKED/, path);
    }
    const opt = await runTool(h.tools, "mcp_evil__list_folder", { path: "/opt" });
    assert.equal(opt.text, "DONE ");
    const manual = await runTool(h.tools, "mcp_evil__read_file", {
      path: join(h.home.home, "reference", "manual.txt"),
    });
    assert.equal(manual.text, "DONE read me");
    const overwrite = await runTool(h.tools, "mcp_evil__write_file", {
      path: join(h.home.home, "reference", "manual.txt"),
      content: "changed",
    });
    assert.match(overwrite.text, /^BLOCKED/);
    assert.equal(Deno.readTextFileSync(join(h.home.home, "reference", "manual.txt")), "read me");
  },
);

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "a hostile server sees only approved environment variables and no network",
  fn: async () => {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("reached"),
    );
    const h = await startHostile({}, { API_TOKEN: "sk-secret-value" });
    try {
      const env = await runTool(h.tools, "mcp_evil__environment", {});
      assert.doesNotMatch(env.text, /sk-secret-value|API_TOKEN/);
      const names = Object.keys(JSON.parse(env.text));
      assert.deepEqual(names.filter((name) => !["DENO_DIR", "PATH", "PWD"].includes(name)), []);
      const net = await runTool(h.tools, "mcp_evil__connect", {
        url: `http://127.0.0.1:${server.addr.port}/`,
      });
      assert.match(net.text, /^BLOCKED/);
      assert.doesNotMatch(net.text, /reached/);
      await stillServes(h.tools);
    } finally {
      await h.source.close();
      h.home.dispose();
      await server.shutdown();
    }
  },
}));

hostileTest("a spawned process cannot write outside and dies with the server", async (h) => {
  const marker = `radar-mcp-marker-${crypto.randomUUID().slice(0, 8)}`;
  const outside = join(h.home.home, "spawned.txt");
  const spawned = await runTool(h.tools, "mcp_evil__spawn", { marker, path: outside });
  assert.match(spawned.text, /^DONE/);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.throws(() => Deno.statSync(outside));
  assert.ok((await processList()).some((process) => process.args.includes(marker)));
  await h.source.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.ok(!(await processList()).some((process) => process.args.includes(marker)));
});

hostileTest("a flood on stdout kills the server; the next call restarts it", async (h) => {
  const flood = await runTool(h.tools, "mcp_evil__flood", {});
  assert.equal(flood.outcome, "error", flood.text);
  await stillServes(h.tools);
});

hostileTest("a long result is cut to max_result_chars", async (h) => {
  const huge = await runTool(h.tools, "mcp_evil__huge_result", {});
  assert.ok(huge.text.length < 5200, `${huge.text.length}`);
  assert.match(huge.text, /\[cut: the result had 150000 characters\]/);
});

hostileTest("a hanging or spinning server times out, is killed and restarted", async (h) => {
  const started = Date.now();
  const hang = await runTool(h.tools, "mcp_evil__hang", {});
  assert.equal(hang.outcome, "timeout", hang.text);
  assert.ok(Date.now() - started < 8000);
  await stillServes(h.tools);
  const spin = await runTool(h.tools, "mcp_evil__busy_loop", {});
  assert.equal(spin.outcome, "timeout", spin.text);
  await stillServes(h.tools);
});

hostileTest("a crashing server is restarted on the next call", async (h) => {
  const before = (await runTool(h.tools, "mcp_evil__instance", {})).text;
  const badArguments = await runTool(h.tools, "mcp_evil__echo", { text: 42 });
  assert.equal(badArguments.outcome, "error", badArguments.text);
  assert.equal((await runTool(h.tools, "mcp_evil__instance", {})).text, before, "not restarted");
  const crash = await runTool(h.tools, "mcp_evil__crash", {});
  assert.equal(crash.outcome, "error", crash.text);
  await stillServes(h.tools);
  assert.notEqual((await runTool(h.tools, "mcp_evil__instance", {})).text, before);
  await runTool(h.tools, "mcp_evil__crash", {});
  await stillServes(h.tools);
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "an idle server is stopped and started afresh on the next call",
  fn: async () => {
    const h = await startHostile({}, {}, 0.3);
    try {
      const first = (await runTool(h.tools, "mcp_evil__instance", {})).text;
      assert.equal((await runTool(h.tools, "mcp_evil__instance", {})).text, first);
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.notEqual((await runTool(h.tools, "mcp_evil__instance", {})).text, first);
    } finally {
      await h.source.close();
      h.home.dispose();
    }
  },
}));
