/**
 * The dashboard in a real headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core) against a real `radar serve` subprocess (the flags of `deno task radar`, a
 * temp HOME and data directory, a config file whose model is a fake LLM server started here):
 * log in with the one-time link `radar serve` printed (it works once), visit every page without console errors or CSP violations, chat with a tool call,
 * search memory, add a task, approve a dropped-in plugin, save an invalid config and see the
 * error, and check that a `<script>` a model put into a fact never runs. Screenshots go to
 * tests/output/screenshots/.
 *
 * playwright-core asks at import whether it runs under WSL by probing
 * /proc/sys/fs/binfmt_misc/WSLInterop with fs.existsSync; Deno grants /proc/sys paths only with
 * --allow-all and throws instead of answering false. Answering "no" for that one path lets the
 * browser run under the test task's own flags instead of a separate `deno run -A` process.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { join } from "node:path";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";
import { createRadarHome, startRadarServe } from "../helpers/radar_process.ts";
import { fromFileUrl } from "../project/file_url.ts";
import {
  chromiumPath,
  runDashboardScenario,
  scenarioConfig,
} from "./browser/dashboard_scenario.ts";

const wslProbe = "/proc/sys/fs/binfmt_misc/WSLInterop";

function chromiumInstalled(): boolean {
  try {
    return Deno.statSync(chromiumPath).isFile;
  } catch {
    return false;
  }
}

async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  const existsSync = fs.existsSync;
  fs.existsSync =
    ((path: fs.PathLike) => path === wslProbe ? false : existsSync(path)) as typeof fs.existsSync;
  return await import("playwright-core");
}

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

Deno.test({
  name: "dashboard in Chromium against radar serve: login, every page, chat with a tool call, " +
    "memory search, a task, plugin approval, config error, an injected script never runs",
  ignore: !chromiumInstalled(),
  // playwright keeps its pipe to the browser and timers of its own until the process exits.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { chromium } = await loadPlaywright();
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
        const browser = await chromium.launch({
          executablePath: chromiumPath,
          args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        });
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
});
