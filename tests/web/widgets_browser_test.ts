/**
 * Plugin widgets in a real headless Chromium against a real `radar serve`: two plugin folders
 * (tests/fixtures/plugins/downloads_widget and the hostile_widget whose every field carries
 * markup and scripts) are dropped into the data folder, filed for review, approved over HTTP with
 * the dashboard token, and the dashboard home shows both widgets; nothing the hostile one
 * returned runs (no global it sets, no dialog, no CSP violation), and its markup shows as text.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer } from "../fakes/fake_llm_server.ts";
import { createRadarHome, startRadarServe } from "../helpers/radar_process.ts";
import { fixturePath } from "../sandbox/helpers.ts";
import { browserToken, scenarioConfig } from "./browser/dashboard_scenario.ts";
import { collectPageErrors, launchChromium, saveScreenshot } from "./browser/chromium.ts";
import { needing } from "../helpers/system_parts.ts";

const plugins = ["downloads_widget", "hostile_widget"];

Deno.test(needing(["chromium"], {
  name: "plugin widgets render on the dashboard home in Chromium and no script from them runs",
  // playwright keeps its pipe to the browser and timers of its own until the process exits.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const llm = FakeLlmServer.start();
    const radar = createRadarHome(scenarioConfig(llm));
    try {
      for (const name of plugins) {
        const folder = join(radar.dataDir, "plugins", name);
        Deno.mkdirSync(folder, { recursive: true });
        for (const file of ["manifest.yaml", "tool.ts"]) {
          Deno.copyFileSync(join(fixturePath(name), file), join(folder, file));
        }
      }
      const listed = await radar.command(["plugin", "list"]).output();
      assert.equal(listed.code, 0, new TextDecoder().decode(listed.stderr));
      const served = await startRadarServe(radar);
      const auth = { Authorization: `Bearer ${browserToken}` };
      try {
        for (const name of plugins) {
          const approved = await fetch(`${served.url}/plugins/${name}/approve`, {
            method: "POST",
            headers: auth,
            redirect: "manual",
          });
          await approved.body?.cancel();
          assert.ok(approved.status < 400, `approve ${name}: ${approved.status}`);
        }
        const browser = await launchChromium();
        try {
          const context = await browser.newContext({ extraHTTPHeaders: auth });
          const page = await context.newPage();
          const problems = collectPageErrors(page);
          page.on("dialog", (dialog) => {
            problems.push(`dialog: ${dialog.message()}`);
            void dialog.dismiss();
          });
          await page.goto(`${served.url}/`);
          const good = page.locator('section.widget[data-plugin="downloads_widget"]');
          await good.getByText("3 new files since 08:00").waitFor({ timeout: 20_000 });
          assert.equal(
            await good.locator("h2").innerText(),
            "Downloads today · plugin downloads_widget",
          );
          assert.equal(
            await good.getByRole("link", { name: "Radar docs" }).getAttribute("href"),
            "https://example.org/radar/widgets",
          );
          const hostile = page.locator('section.widget[data-plugin="hostile_widget"]');
          await hostile.getByText("visible text").waitFor({ timeout: 20_000 });
          assert.match(
            await hostile.innerText(),
            /<script>window.__pwned = 1<\/script>visible text/,
          );
          assert.match(await hostile.locator("h2").innerText(), /<img src=x onerror=/);
          assert.equal(await hostile.locator("script, img, iframe").count(), 0);
          await saveScreenshot(page, "widgets");
          assert.equal(await page.evaluate(() => "__pwned" in globalThis), false);
          assert.deepEqual(problems, []);
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
