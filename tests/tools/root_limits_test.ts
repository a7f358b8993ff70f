/**
 * Issue 23, class 6: limits that hold for root. As root (how CI and many small servers run Radar)
 * the shadow files and their backups are readable by the process, so they are hidden from exec
 * and refused by read_file like every other secret.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { execStatusLines } from "../../src/cli/commands/exec_status.ts";
import { readFileTool } from "../../src/tools/read_file.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";
import { execFor } from "./exec/exec_harness.ts";
import { type MachineCondition, needing, onLinux } from "../helpers/system_parts.ts";

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

Deno.test("read_file refuses the shadow files and their backups", async () => {
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
});

Deno.test(needing([onLinux, "bubblewrap", shadowFilesHere], {
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
}));

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "exec's max_processes holds for root too (a pids cgroup, not only RLIMIT_NPROC)",
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
      const started = [...Deno.readDirSync(scratch)].filter((entry) =>
        entry.name.startsWith("started-")
      ).length;
      assert.ok(started > 0, "the command ran");
      assert.ok(started <= 16, `${started} processes ran under max_processes 16`);
    } finally {
      home.dispose();
    }
  },
}));

Deno.test("radar status warns when Radar runs as root, and only then", () => {
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
});
