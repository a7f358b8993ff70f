/**
 * The dashboard in a real headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core) against a real server on a loopback port: log in, visit every page without
 * console errors or CSP violations, chat with a scripted model and see the tool call, search
 * memory, approve a plugin, save an invalid config and see the error, and check that a
 * `<script>` stored in a fact never runs. Screenshots go to tests/output/screenshots/.
 * The scenario runs in its own process (see browser/dashboard_scenario.ts for why).
 */
import assert from "node:assert/strict";

const chromiumPath = "/usr/bin/chromium";

function chromiumInstalled(): boolean {
  try {
    return Deno.statSync(chromiumPath).isFile;
  } catch {
    return false;
  }
}

Deno.test({
  name: "dashboard in Chromium: login, every page, chat with a tool call, memory search, " +
    "plugin approval, config error, an injected script never runs, no console errors",
  ignore: !chromiumInstalled(),
  async fn() {
    const scenario = new URL("./browser/dashboard_scenario.ts", import.meta.url).pathname;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-prompt", scenario],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, text);
    assert.match(text, /every check passed/);
  },
});
