/**
 * Issue 23, class 6: limits that hold for root. As root (how CI and many small servers run Radar)
 * the shadow files and their backups are readable by the process, so they are hidden from exec
 * and refused by read_file like every other secret.
 */
import assert from "node:assert/strict";
import { readFileTool } from "../../src/tools/read_file.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";
import { execFor, hasBubblewrap } from "./exec/exec_harness.ts";

const shadowFiles = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"];
const present = shadowFiles.filter((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

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

Deno.test({
  name: "exec does not see the shadow files or their backups",
  ignore: !hasBubblewrap || !present.length,
  fn: async () => {
    const home = tempHome();
    try {
      const result = await call(execFor(home), { command: `cat ${present.join(" ")}` });
      assert.ok(!/root:[^:\n]*:\d+:/.test(result.text), result.text);
    } finally {
      home.dispose();
    }
  },
});
