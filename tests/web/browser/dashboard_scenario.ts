/**
 * The browser scenario behind tests/web/browser_test.ts, run as its own `deno run -A` process:
 * playwright-core probes paths (/proc/sys/fs/binfmt_misc) that Deno grants only with
 * --allow-all, which the project's test task does not give. Exits 0 when every check holds.
 */
import assert from "node:assert/strict";
import { chromium, type Page } from "playwright-core";
import { startWebServerWith } from "../../../web/server.ts";
import { textResponse, toolCallResponse } from "../../fakes/scripted_chat_model.ts";
import { FakeDaemonView, FakeLogsView, FakePluginsView } from "../../fakes/web_views.ts";
import { createWebFixture } from "../web_fixture.ts";

/** Debian's Chromium (.ci/run installs it). */
export const chromiumPath = "/usr/bin/chromium";
const screenshots = new URL("../../output/screenshots/", import.meta.url);

/** Console messages that are expected: the browser logs every 422 answer as a failed load. */
function unexpected(messages: string[]): string[] {
  return messages.filter((text) => !/status of 422/.test(text));
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, screenshots).pathname, fullPage: true });
}

/** Runs the whole scenario; throws on the first failed check. */
export async function runDashboardScenario(): Promise<void> {
  Deno.mkdirSync(screenshots, { recursive: true });
  const daemon = new FakeDaemonView();
  daemon.last = {
    at: "2026-11-22T09:45:00.000Z",
    reason: "schedule",
    outcome: "skipped",
    summary: "Nothing new",
  };
  daemon.next = "2026-11-22T10:00:00.000Z";
  daemon.tasksList = [{
    id: 1,
    name: "weekly summary",
    schedule: "0 9 * * 1",
    prompt: "Summarize my week",
    enabled: true,
    nextRun: "2026-11-23T09:00:00Z",
  }];
  const plugins = new FakePluginsView([], [{
    name: "weather",
    version: "1.0.0",
    description: "Forecasts for your city",
    trust: "sandbox",
    requestedAt: "2026-11-22T09:00:00Z",
    files: [{ path: "main.ts", content: "export const forecast = () => 'sunny';" }],
    tests: { passed: true, output: "2 passed" },
    permissionDiff: { added: ["connect to api.weather.example"], removed: [], unchanged: [] },
  }]);
  const logs = new FakeLogsView(["10:00 info heartbeat skipped: nothing new"], []);
  const fixture = createWebFixture({
    authToken: "browser-token",
    script: [
      toolCallResponse("remember", { content: "The user likes green tea" }),
      textResponse("Noted: you like **green tea**."),
    ],
    extra: { daemon, plugins, logs },
  });
  fixture.facts.addFact({
    category: "learned_fact",
    content: `Injected <script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`,
  }, fixture.clock.now());
  const server = startWebServerWith(fixture.deps, { host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const consoleErrors: string[] = [];
  try {
    const page = await browser.newPage();
    page.on("console", (message) => {
      if (message.type() === "error" || /Content.Security.Policy/i.test(message.text())) {
        consoleErrors.push(`${page.url()}: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));

    await page.goto(`${base}/memory`);
    assert.match(page.url(), /\/login\?next=%2Fmemory$/);
    await shoot(page, "login");
    await page.fill("input[name=token]", "browser-token");
    await Promise.all([page.waitForURL(`${base}/memory`), page.click("button[type=submit]")]);

    for (const [path, name] of [["/", "dashboard"], ["/tasks", "tasks"], ["/logs", "logs"]]) {
      await page.goto(`${base}${path}`);
      await shoot(page, name);
    }
    await page.goto(`${base}/`);
    await page.waitForSelector("text=scripted-model");

    await page.goto(`${base}/memory`);
    assert.equal(
      await page.evaluate(() => "__pwned" in globalThis),
      false,
      "injected script ran",
    );
    assert.match(await page.textContent("#memory-results") ?? "", /<script>window.__pwned/);
    await page.fill("input[name=q]", "injected");
    await page.waitForSelector("#memory-results h2:has-text('1 match')");
    await shoot(page, "memory");

    await page.goto(`${base}/chat`);
    await page.fill("textarea[name=message]", "Remember that I like green tea");
    await page.click("#chat-form button[type=submit]");
    await page.waitForSelector(".message.assistant.done .tool-name:has-text('remember')");
    await page.waitForSelector(".message.assistant.done strong:has-text('green tea')");
    assert.equal(await page.inputValue("textarea[name=message]"), "", "the form was reset");
    await page.click(".message.assistant.done summary");
    await page.waitForSelector(
      ".message.assistant.done pre:has-text('The user likes green tea')",
    );
    await shoot(page, "chat");
    assert.equal(fixture.facts.searchFacts("green tea", 5).length, 1);

    await page.goto(`${base}/history`);
    await page.click("text=Remember that I like green tea");
    await page.waitForSelector(".tool-name:has-text('remember')");
    await shoot(page, "history");

    await page.goto(`${base}/plugins/review`);
    await shoot(page, "plugin-review");
    await Promise.all([
      page.waitForURL(`${base}/plugins/review`),
      page.click("button:has-text('Approve weather')"),
    ]);
    await page.waitForSelector("text=Nothing waiting for review.");
    assert.deepEqual(plugins.calls, ["approve weather"]);
    await page.goto(`${base}/plugins`);
    await page.waitForSelector("text=connect to api.weather.example");
    await shoot(page, "plugins");

    await page.goto(`${base}/config`);
    await page.fill("textarea[name=text]", "llm:\n  temperature: 5\n");
    await page.click("button:has-text('Save')");
    await page.waitForSelector("#config-result .notice.error");
    assert.match(
      await page.textContent("#config-result") ?? "",
      /llm\.temperature: expected at most 2, found number 5/,
    );
    await shoot(page, "config");
    assert.doesNotMatch(Deno.readTextFileSync(fixture.configPath), /temperature: 5/);

    assert.equal(await page.evaluate(() => "__pwned" in globalThis), false);
    assert.deepEqual(unexpected(consoleErrors), []);
  } finally {
    await browser.close();
    await server.close();
    fixture.close();
  }
}

if (import.meta.main) {
  try {
    await runDashboardScenario();
    console.log("dashboard scenario: every check passed");
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
