import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { askContext, call, tempHome } from "../tool_harness.ts";
import { chatContext, execFor, heartbeatContext, processList } from "./exec_harness.ts";
import { needing, onLinux } from "../../helpers/system_parts.ts";

Deno.test(needing(
  [onLinux, "bubblewrap"],
  { name: "exec returns exit code, stdout and stderr" },
  async () => {
    const home = tempHome();
    try {
      const result = await call(execFor(home), { command: "echo out; echo err >&2; exit 3" });
      assert.equal(result.outcome, "ok");
      assert.equal(result.text, "exit code 3\n--- stdout ---\nout\n--- stderr ---\nerr");
      const cwd = await call(execFor(home), { command: "pwd", cwd: "~" });
      assert.equal(cwd.text, `exit code 0\n--- stdout ---\n${home.home}`);
    } finally {
      home.dispose();
    }
  },
));

Deno.test(needing([onLinux, "bubblewrap"], { name: "exec caps output with a note" }, async () => {
  const home = tempHome();
  try {
    const tool = execFor(home, (c) => c.tools.exec.max_output_chars = 1000);
    const result = await call(tool, { command: "head -c 50000 /dev/zero | tr '\\0' a" });
    assert.match(
      result.text,
      /^exit code 0\n--- stdout ---\na{1000}\n\[stdout cut: 49000 more bytes/,
    );
  } finally {
    home.dispose();
  }
}));

async function processesWith(marker: string): Promise<number[]> {
  return (await processList()).filter((process) =>
    process.args.includes(marker) && !process.args.startsWith("ps ")
  ).map((process) => process.pid);
}

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "exec timeout kills the whole sandbox, grandchildren in new sessions included",
}, async () => {
  const home = tempHome();
  try {
    const tool = execFor(home, (c) => c.tools.exec.timeout_seconds = 0.5);
    const started = performance.now();
    const result = await call(tool, {
      command: "setsid sleep 300.271 & sh -c 'sleep 300.272 & wait'",
    });
    assert.equal(result.outcome, "timeout");
    assert.match(result.text, /Timed out after 0\.5 s; the command and its children were killed/);
    assert.ok(performance.now() - started < 5000, "returned promptly");
    let left = await processesWith("300.27");
    for (let attempt = 0; attempt < 40 && left.length; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await processesWith("300.27");
    }
    assert.deepEqual(left, []);
  } finally {
    home.dispose();
  }
}));

Deno.test("without a sandbox every command needs a yes in chat and none runs unattended", async () => {
  const home = tempHome();
  try {
    const tool = execFor(home, (c) => c.tools.exec.sandbox = false);
    const target = join(home.home, "made");
    for (const context of [askContext(), heartbeatContext()]) {
      const result = await call(tool, { command: "ls" }, context);
      assert.equal(result.outcome, "refused");
      assert.match(result.text, /No exec sandbox is active, so exec never runs unattended/);
    }
    const questions: string[] = [];
    let result = await call(tool, { command: "touch ~/made" }, chatContext(false, questions));
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /user declined/);
    assert.match(
      questions[0],
      /No sandbox is active: this command would run with all your rights:\n {2}touch ~\/made/,
    );
    assert.ok(!existsSync(target));
    result = await call(tool, { command: "touch ~/made" }, chatContext(true));
    assert.equal(result.outcome, "ok", result.text);
    assert.ok(existsSync(target));
  } finally {
    home.dispose();
  }
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "safe_only runs plainly read-only commands and refuses the rest",
}, async () => {
  const home = tempHome();
  try {
    const tool = execFor(home, (c) => c.tools.exec.mode = "safe_only");
    assert.equal((await call(tool, { command: "ls ~ | wc -l" })).outcome, "ok");
    const result = await call(tool, { command: "touch x" });
    assert.equal(result.outcome, "refused");
    assert.match(result.text, /safe_only and this is not a plainly read-only command/);
  } finally {
    home.dispose();
  }
}));

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "exec strips Radar's variables and hides secret values from the output",
}, async () => {
  const home = tempHome();
  try {
    const tool = execFor(home, (c) => c.llm.api_key = "sk-very-secret", {
      RADAR_LLM_API_KEY: "sk-very-secret",
      OTHER_TOKEN: "prefix-sk-very-secret",
      SERVICE_API_TOKEN: "tok-5f2b8c1d9e7a",
      SSH_AUTH_SOCK: "/run/user/1000/keyring/ssh",
      DISPLAY: ":0",
    });
    const env = await call(tool, {
      command: "env; echo sk-very-secret; printenv SERVICE_API_TOKEN",
    });
    assert.doesNotMatch(
      env.text,
      /RADAR_LLM_API_KEY|OTHER_TOKEN|sk-very-secret|tok-5f2b8c1d9e7a|SSH_AUTH_SOCK|DISPLAY/,
    );
    assert.match(env.text, /\*\*\*\*\*\*\*\*/);
  } finally {
    home.dispose();
  }
}));

Deno.test(needing(
  [onLinux, "bubblewrap"],
  { name: "a working folder inside a secret folder is refused" },
  async () => {
    const home = tempHome();
    try {
      Deno.mkdirSync(join(home.home, ".ssh"));
      const result = await call(execFor(home), { command: "ls", cwd: "~/.ssh" });
      assert.equal(result.outcome, "refused");
      assert.match(result.text, /protected by rule ~\/\.ssh/);
    } finally {
      home.dispose();
    }
  },
));
