/**
 * Issue 23, class 6: limits that hold for root and for a normal user alike. As root (how CI and
 * many small servers run Radar) the shadow files and their backups are readable by the process,
 * so they are hidden from exec and refused by read_file like every other secret; the kernel does
 * not apply RLIMIT_NPROC to root, so max_processes holds through a pids cgroup there (for exec and
 * MCP servers), and through RLIMIT_NPROC for a normal user. Each test runs as the suite's user
 * and, when that is root, again as the test user (forEachUser).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { execStatusLines } from "../../src/cli/commands/exec_status.ts";
import { readFileTool } from "../../src/tools/read_file.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";
import { execFor } from "./exec/exec_harness.ts";
import { startHostile } from "../mcp/hostile_harness.ts";
import { runTool } from "../mcp/mcp_harness.ts";
import { forEachUser, type MachineCondition, onLinux } from "../helpers/system_parts.ts";

const shadowFiles = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"];
const present = shadowFiles.filter((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});
/** The exec test needs a shadow file to hide (a machine without any has nothing to show). */
const shadowFilesHere: MachineCondition = {
  holds: present.length > 0,
  unless: "runs only where a shadow file exists",
};

forEachUser(import.meta.url, [], {
  name: "read_file refuses the shadow files and their backups",
  fn: async () => {
    const home = tempHome();
    try {
      const tool = readFileTool(toolDeps(home));
      for (const path of shadowFiles) {
        const result = await call(tool, { path });
        assert.equal(result.outcome, "refused", `${path}: ${result.text}`);
      }
    } finally {
      home.dispose();
    }
  },
}).forEach((test) => Deno.test(test));

forEachUser(import.meta.url, [onLinux, "bubblewrap", shadowFilesHere], {
  name: "exec does not see the shadow files or their backups",
  fn: async () => {
    const home = tempHome();
    try {
      const result = await call(execFor(home), { command: `cat ${present.join(" ")}` });
      assert.ok(!/root:[^:\n]*:\d+:/.test(result.text), result.text);
    } finally {
      home.dispose();
    }
  },
}).forEach((test) => Deno.test(test));

/** How many of the sleepers left their marker in `folder`. */
function startedIn(folder: string): number {
  return [...Deno.readDirSync(folder)].filter((entry) => entry.name.startsWith("started-")).length;
}

forEachUser(import.meta.url, [onLinux, "bubblewrap"], {
  name: "exec's max_processes holds (root: a pids cgroup; a normal user: RLIMIT_NPROC)",
  fn: async () => {
    const home = tempHome();
    const scratch = join(home.home, "scratch");
    try {
      const exec = execFor(home, (config) => {
        config.tools.exec.max_processes = 16;
        config.tools.exec.timeout_seconds = 20;
        config.tools.exec.scratch_dir = scratch;
      });
      // 40 sleepers at once, each leaving a marker in the scratch folder when it starts; each is one
      // process (the marker by redirection, sleep by exec), so a full table stops only sleepers.
      await call(exec, {
        command: `for i in $(seq 40); do (: > ${scratch}/started-$i; exec sleep 2) & done; wait`,
      });
      const started = startedIn(scratch);
      assert.ok(started > 0, "the command ran");
      assert.ok(started <= 16, `${started} processes ran under max_processes 16`);
    } finally {
      home.dispose();
    }
  },
}).forEach((test) => Deno.test(test));

forEachUser(import.meta.url, [onLinux, "bubblewrap"], {
  name: "an MCP server's processes are limited by max_processes too",
  fn: async () => {
    // The server is a Deno program: its threads count too, and loading its modules briefly
    // takes about 30 of them (measured: a limit of 32 left no room to start a shell 2 runs in 6).
    // It starts 240 sleepers under a limit of 96.
    const limit = 96;
    const h = await startHostile({}, {}, 300, (config) => config.tools.exec.max_processes = limit);
    try {
      const result = await runTool(h.tools, "mcp_evil__sleepers", { count: 240, folder: h.folder });
      // The shell stops at its first refused fork; it answers once its last sleeper ended.
      assert.match(result.text, /^DONE exit \d+$/);
      const started = startedIn(h.folder);
      assert.ok(started > 0, "the sleepers ran");
      assert.ok(started <= limit, `${started} processes ran under max_processes ${limit}`);
    } finally {
      await h.source.close();
      h.home.dispose();
    }
  },
}).forEach((test) => Deno.test(test));

forEachUser(import.meta.url, [], {
  name: "radar status warns when Radar runs as root, and only then",
  fn: () => {
    const home = tempHome();
    try {
      const radar = { config: toolDeps(home).config, dataDir: home.dataDir };
      const env = { HOME: home.home, PATH: Deno.env.get("PATH") };
      const asRoot = execStatusLines(radar, env, 0).join("\n");
      assert.match(asRoot, /WARNING: +Radar runs as root/);
      const asUser = execStatusLines(radar, env, 1000).join("\n");
      assert.doesNotMatch(asUser, /runs as root/);
      // The real process: CI runs as root, a developer usually not.
      const actual = execStatusLines(radar, env).join("\n");
      assert.equal(/runs as root/.test(actual), Deno.uid() === 0);
    } finally {
      home.dispose();
    }
  },
}).forEach((test) => Deno.test(test));
