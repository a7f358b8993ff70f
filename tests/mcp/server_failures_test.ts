/**
 * MCP servers that fail say what happened, in words a user can act on: a stdio server that dies
 * at start shows how it ended and its last stderr lines (capped, secrets masked), a program the
 * sandbox hides (installed under /tmp) is named with what to grant (also from `radar mcp add`),
 * a Deno server whose packages are not in Deno's cache says so with the command that caches
 * them, and an HTTP server that is down names its address and "connection refused" or "timed out".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { discoverTools } from "../../src/mcp/mcp_servers.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";
import { tempHome, toolDeps } from "../tools/tool_harness.ts";
import {
  approvalOf,
  cacheSpecifier,
  denoDir,
  denoServer,
  hostileServerCopy,
  MemoryApprovals,
  runTool,
} from "./mcp_harness.ts";
import { mcpToolSource } from "../../src/mcp/mcp_servers.ts";
import { cacheCommandFor } from "../../src/mcp/server_failure.ts";
import { freePort } from "../fakes/dovecot_server.ts";
import { sandboxedServerPackages } from "../../scripts/test_caches.ts";

const [serverPackage] = sandboxedServerPackages;

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "an npm server that dies at start says how it ended and its stderr, secrets masked",
  fn: async () => {
    await cacheSpecifier(serverPackage);
    const home = tempHome();
    const token = "Tok-fs-5F3A9C-secret";
    try {
      // The reference filesystem server exits at once when none of its folders exists, and
      // names the folder on stderr: here the folder's name carries a granted variable's value.
      const approval = approvalOf(
        "fsgone",
        denoServer(serverPackage, join(home.home, "gone", token)),
        { env: ["DENO_DIR", "FS_TOKEN"] },
      );
      const deps = toolDeps(home, () => {}, {
        env: { HOME: home.home, DENO_DIR: denoDir, FS_TOKEN: token },
      });
      await assert.rejects(discoverTools(deps, approval), (error: Error) => {
        assert.match(error.message, /^it exited with code 1; its stderr: /);
        assert.match(error.message, /None of the specified directories are accessible/);
        assert.match(error.message, /gone\/\*{8}/, "the variable's value is masked");
        assert.ok(!error.message.includes(token));
        assert.doesNotMatch(error.message, /-32000|Connection closed/);
        return true;
      });
      // The same through a registered tool (approved earlier, when the folder still existed).
      const approvals = new MemoryApprovals();
      approvals.save({
        ...approval,
        tools: [{ name: "list_directory", inputSchema: { type: "object" } }],
      });
      const source = mcpToolSource(deps, approvals);
      try {
        const result = await runTool(source.tools, "mcp_fsgone__list_directory", { path: "/" });
        assert.equal(result.outcome, "error");
        assert.match(
          result.text,
          /^MCP server fsgone failed: it exited with code 1; its stderr: .*accessible/,
        );
        assert.ok(!result.text.includes(token));
      } finally {
        await source.close();
      }
    } finally {
      home.dispose();
    }
  },
}));

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "radar mcp add of a program under /tmp says the sandbox hid it and what to grant",
  fn: async () => {
    const home = tempHome();
    const installed = Deno.makeTempDirSync({ dir: "/tmp", prefix: "radar-mcp-installed-" });
    try {
      const program = hostileServerCopy(join(installed, "server"));
      const env = {
        HOME: home.home,
        RADAR_DATA_DIR: join(home.home, "data"),
        RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
        PATH: Deno.env.get("PATH") ?? "",
        DENO_DIR: denoDir,
      };
      const add = (extra: string[]) => [
        "mcp",
        "add",
        "tmpserver",
        "--env",
        "DENO_DIR",
        ...extra,
        "--",
        ...denoServer(program),
      ];
      const hidden = memoryIo(env, { cwd: home.home });
      assert.equal(await runCli(add([]), hidden), 1);
      const line = hidden.err.join("");
      assert.equal(line.trim().split("\n").length, 1, line);
      assert.match(
        line,
        new RegExp(
          `^radar: Cannot approve tmpserver: .*the sandbox hid its program: ${program} is under ` +
            `/tmp, which the sandbox replaces with an empty private /tmp; .*--read ${installed}\\b`,
        ),
      );
      assert.doesNotMatch(line, /-32000/);
      // Doing what it says works.
      const granted = memoryIo(env, { cwd: home.home });
      assert.equal(await runCli(add(["--read", installed]), granted), 0, granted.err.join(""));
      assert.match(granted.out.join(""), /Approved MCP server tmpserver/);
    } finally {
      Deno.removeSync(installed, { recursive: true });
      home.dispose();
    }
  },
}));

Deno.test("an HTTP server that is down names its address and says connection refused", async () => {
  const home = tempHome();
  try {
    const url = `http://127.0.0.1:${freePort()}/mcp`;
    const approval = approvalOf("webdown", [], { url, hosts: ["127.0.0.1"] });
    await assert.rejects(discoverTools(toolDeps(home), approval), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`cannot reach ${url.replaceAll(".", "\\.")}: connection refused`),
      );
      assert.doesNotMatch(error.message, /^fetch failed$/);
      return true;
    });
  } finally {
    home.dispose();
  }
});

Deno.test("an HTTP server that never answers names its address and says it timed out", async () => {
  const home = tempHome();
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const connection of silent) held.push(connection);
  })();
  try {
    const url = `http://127.0.0.1:${silent.addr.port}/mcp`;
    const approval = approvalOf("websilent", [], { url, hosts: ["127.0.0.1"] });
    const deps = toolDeps(home, (config) => config.mcp.timeout_seconds = 0.3);
    await assert.rejects(discoverTools(deps, approval), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`${url.replaceAll(".", "\\.")} did not answer in time \\(timed out\\)`),
      );
      return true;
    });
  } finally {
    silent.close();
    await accepting.catch(() => {});
    for (const connection of held) connection.close();
    home.dispose();
  }
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "radar mcp add of a Deno server whose packages are not cached says so in one line, " +
    "with the command that caches them",
  fn: async () => {
    const home = tempHome();
    try {
      const env = {
        HOME: home.home,
        RADAR_DATA_DIR: join(home.home, "data"),
        PATH: Deno.env.get("PATH") ?? "",
        DENO_DIR: denoDir,
      };
      // No such package is in any cache, and the sandbox has no network: --cached-only fails.
      const server = denoServer("npm:radar-never-cached-package@1.0.0");
      const io = memoryIo(env, { cwd: home.home });
      const code = await runCli(
        ["mcp", "add", "uncached", "--env", "DENO_DIR", "--", ...server],
        io,
      );
      assert.equal(code, 1);
      assert.equal(
        io.err.join(""),
        "radar: Cannot approve uncached: its packages are not in Deno's cache (npm package " +
          '"radar-never-cached-package"; it runs offline, --cached-only): cache them with ' +
          `\`${Deno.execPath()} cache --no-lock npm:radar-never-cached-package@1.0.0\`\n`,
      );
    } finally {
      home.dispose();
    }
  },
}));

Deno.test("the cache command of a server keeps deno, its lock and config flags, and its module", () => {
  assert.deepEqual(
    cacheCommandFor(["/usr/bin/deno", "run", "--quiet", "--no-lock", "-A", "srv.ts", "--x"]),
    ["/usr/bin/deno", "cache", "--no-lock", "srv.ts"],
  );
  assert.deepEqual(
    cacheCommandFor(["deno", "run", "--config", "c.json", "--lock=l.json", "npm:a@1/b.js"]),
    ["deno", "cache", "--config", "c.json", "--lock=l.json", "npm:a@1/b.js"],
  );
  assert.equal(cacheCommandFor(["npx", "-y", "pkg"]), undefined);
  assert.equal(cacheCommandFor(["deno", "run", "--no-lock"]), undefined);
});
