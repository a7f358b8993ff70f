import assert from "node:assert/strict";
import { execTool } from "../../../src/tools/exec.ts";
import { call, tempHome, toolDeps } from "../tool_harness.ts";

Deno.test("exec output never shows the values of secret-looking environment variables", async () => {
  const home = tempHome();
  try {
    const secret = "tok-5f2b8c1d9e7a";
    const tool = execTool(toolDeps(home, () => {}, {
      env: { HOME: home.home, PATH: Deno.env.get("PATH"), SERVICE_API_TOKEN: secret },
    }));
    const result = await call(tool, { command: "printenv SERVICE_API_TOKEN; env | grep SERVICE" });
    assert.equal(result.outcome, "ok");
    assert.ok(!result.text.includes(secret), result.text);
    assert.match(result.text, /\*{8}/);
  } finally {
    home.dispose();
  }
});
