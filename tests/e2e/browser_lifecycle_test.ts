/**
 * No orphan browsers: `radar ask` (a real subprocess, the binary's flags) that opened a page and is
 * killed with SIGKILL leaves no Chromium behind; one that finishes closes its browser; and
 * Radar's close ends a chat's browser (the daemon closes Radar when it stops).
 */
import { needing } from "../helpers/system_parts.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import {
  browserProcessesAfter,
  browserProfiles,
  chromiumPath,
  processesUsing,
  radarBrowserProcesses,
  servePages,
} from "../helpers/browser_pages.ts";
import { radarCommand } from "../helpers/radar_process.ts";
import { chatTurn, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";

const browserYaml = (llm: string) =>
  `llm:\n  base_url: "${llm}"\n  retries: 0\nplugins:\n  enabled: false\n` +
  `browser:\n  executable: "${chromiumPath}"\n  allowed_hosts: ["127.0.0.1"]\n`;

/** Waits until `check` holds (up to `ms`). */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  return check();
}

Deno.test(
  needing(["chromium"], {
    name: "radar ask killed with SIGKILL while its browser is open leaves no browser process",
  }, async () => {
    const pages = servePages({ "/": "<p>Opening hours: 9 to 5</p>" });
    const llm = FakeLlmServer.start();
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    llm.reply(
      ollamaToolCall("browser", { action: "open", url: `${pages.origin}/` }),
      { ...ollamaText("never sent"), hold: held },
    );
    const home = Deno.makeTempDirSync({ prefix: "radar-browser-kill-" });
    Deno.writeTextFileSync(join(home, "radar.yaml"), browserYaml(llm.url));
    const child = radarCommand(home, ["ask", "When does the shop open? Use the browser."], {
      env: { RADAR_CONFIG: join(home, "radar.yaml") },
    }).spawn();
    const drained = Promise.all([
      child.stdout.pipeTo(new WritableStream()),
      child.stderr.pipeTo(new WritableStream()),
    ]).catch(() => {});
    try {
      // The second model request comes after the browser call: the page is open then.
      assert.ok(
        await until(() => llm.chatRequests.length >= 2, 60_000),
        "the ask reached the model twice",
      );
      assert.match(JSON.stringify(llm.chatRequests[1].body), /Opening hours: 9 to 5/);
      const browsers = radarBrowserProcesses(child.pid);
      assert.equal(browsers.length, 1, "the ask's browser runs");
      const profiles = browserProfiles(child.pid);
      assert.equal(profiles.length, 1);
      assert.ok(processesUsing(profiles).length > 1, "with its helper processes");
      child.kill("SIGKILL");
      await child.status;
      assert.deepEqual(await browserProcessesAfter(15_000, child.pid), [], "the browser exited");
      assert.ok(
        await until(() => processesUsing(profiles).length === 0, 15_000),
        "and its helpers",
      );
    } finally {
      release();
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await drained;
      await llm.close();
      await pages.close();
      Deno.removeSync(home, { recursive: true });
    }
  }),
);

Deno.test(
  needing(["chromium"], {
    name: "radar ask that finishes closes its browser and removes its temporary profile",
  }, async () => {
    const pages = servePages({ "/": "<p>Opening hours: 9 to 5</p>" });
    const llm = FakeLlmServer.start();
    llm.reply(
      ollamaToolCall("browser", { action: "open", url: `${pages.origin}/` }),
      ollamaText("The shop opens at 9."),
    );
    const home = Deno.makeTempDirSync({ prefix: "radar-browser-ask-" });
    Deno.writeTextFileSync(join(home, "radar.yaml"), browserYaml(llm.url));
    const tmp = join(home, "tmp");
    Deno.mkdirSync(tmp);
    try {
      const output = await radarCommand(
        home,
        ["ask", "When does the shop open? Use the browser."],
        {
          env: { RADAR_CONFIG: join(home, "radar.yaml"), TMPDIR: tmp },
        },
      ).output();
      const stdout = new TextDecoder().decode(output.stdout);
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      assert.match(stdout, /The shop opens at 9\./);
      assert.equal(pages.seen.length, 1);
      assert.deepEqual(
        [...Deno.readDirSync(tmp)].map((entry) => entry.name),
        [],
        "no profile left",
      );
    } finally {
      await llm.close();
      await pages.close();
      Deno.removeSync(home, { recursive: true });
    }
  }),
);

Deno.test(needing(["chromium"], { name: "Radar's close ends a chat's browser" }, async () => {
  const pages = servePages({ "/": "<p>Menu of the day</p>" });
  await withFakeLlmRadar({
    prefix: "radar-browser-close-",
    yaml: browserYaml("http://127.0.0.1:9"),
  }, async (radar, home) => {
    home.server.reply(
      ollamaToolCall("browser", { action: "open", url: `${pages.origin}/` }),
      ollamaText("Soup."),
    );
    // The config's base_url is replaced by the home's fake server (RADAR_LLM_BASE_URL).
    const { result } = await chatTurn(radar, "What is on the menu? Use the browser.", {
      confirm: () => Promise.resolve(false),
    });
    assert.equal(result.answer, "Soup.");
    assert.equal(
      (await radar.agentStack()).browser.openSessions(),
      1,
      "a chat keeps its browser for the next message",
    );
    assert.equal(radarBrowserProcesses().length, 1);
    radar.close();
    assert.deepEqual(await browserProcessesAfter(15_000), []);
  });
  await pages.close();
}));
