/**
 * The dashboard in a real headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core) against a real `radar serve` subprocess (the flags of `deno task radar`, a
 * temp HOME and data directory, a config file whose model is a fake LLM server started here):
 * log in with the one-time link `radar serve` printed (it works once), visit every page without console errors or CSP violations, chat with a tool call,
 * search memory, add a task, approve a dropped-in plugin, save an invalid config and see the
 * error, and check that a `<script>` a model put into a fact never runs. Screenshots go to
 * tests/output/screenshots/.
 * (chromium.ts says why playwright-core is imported through loadPlaywright.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";
import { createRadarHome, startRadarServe } from "../helpers/radar_process.ts";
import { fromFileUrl } from "../project/file_url.ts";
import { runDashboardScenario, scenarioConfig } from "./browser/dashboard_scenario.ts";
import { launchChromium } from "./browser/chromium.ts";
import { needing } from "../helpers/system_parts.ts";

/** The one-time login link `radar serve` prints once it listens. */
async function printedLoginLink(stderr: () => string): Promise<string> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const link = /http:\/\/\S+\/login\?code=\S+/.exec(stderr())?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`radar serve printed no login link: ${stderr()}`);
}

Deno.test(needing(["chromium"], {
  name: "dashboard in Chromium against radar serve: login, every page, chat with a tool call, " +
    "memory search, a task, plugin approval, config error, an injected script never runs",
  // playwright keeps its pipe to the browser and timers of its own until the process exits.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const llm = FakeLlmServer.start();
    const radar = createRadarHome(scenarioConfig(llm));
    try {
      // A plugin folder dropped into <data>/plugins before start; `radar plugin list` files it
      // for review as the folder watcher would.
      const plugin = join(radar.dataDir, "plugins", "text_utils");
      Deno.mkdirSync(plugin, { recursive: true });
      const source = fromFileUrl(new URL("../../plugins/text_utils/", import.meta.url));
      for (const file of ["manifest.yaml", "tool.ts", "tests.yaml"]) {
        Deno.copyFileSync(join(source, file), join(plugin, file));
      }
      const listed = await radar.command(["plugin", "list"]).output();
      const listing = new TextDecoder().decode(listed.stdout);
      assert.equal(listed.code, 0, new TextDecoder().decode(listed.stderr));
      assert.match(listing, /text_utils: waiting for review/);

      const served = await startRadarServe(radar);
      try {
        const browser = await launchChromium();
        try {
          const loginLink = await printedLoginLink(served.stderr);
          await runDashboardScenario({ browser, base: served.url, llm, radar, loginLink });
        } finally {
          await browser.close();
        }
      } catch (error) {
        throw new Error(
          `${(error as Error).message}\n--- radar serve stderr ---\n${served.stderr()}`,
        );
      } finally {
        assert.equal(await served.stop(), 0, served.stderr());
      }
    } finally {
      await llm.close();
      radar.remove();
    }
  },
}));
