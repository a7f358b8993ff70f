/**
 * The newer dashboard pages in a real headless Chromium against an in-process dashboard over a
 * real runtime (temp home, real SQLite, the repository's bundled skills): the Sources card on the
 * home page, the skills on /plugins with their state, /summaries with a hostile digest and its
 * search, and /personalities (over the real catalog and files) through create → edit → activate
 * → delete with a `<script>` and an `<img onerror>` in the file that must never run, and the
 * events a hook set aside on the home page, put back in the queue by its button. One
 * browser launch for the file; screenshots go to tests/output/screenshots/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { blockedHeartbeatLimit } from "../../src/application/heartbeat_commit.ts";
import { bundledSkillsPath } from "../../src/skills/skill_roots.ts";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { startWebServerWith } from "../../web/server.ts";
import type { PersonalityCatalog } from "../../src/personalities/personality.ts";
import { collectPageErrors, launchChromium, saveScreenshot } from "./browser/chromium.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteDigestStore } from "../../src/adapters/sqlite/digest_store.ts";
import { needing } from "../helpers/system_parts.ts";

/** What the hostile text would do if it ever ran. */
const hostileText = '---\ndescription: Up late <img src=x onerror="window.__pwned = 1">\n---\n' +
  "<script>window.__pwned = 2</script>\nYou answer briefly, at night.\n";

const pwned = (page: Page) => page.evaluate(() => "__pwned" in globalThis);

async function checkSkills(page: Page, base: string): Promise<void> {
  await page.goto(`${base}plugins`);
  const bundled = [...Deno.readDirSync(bundledSkillsPath())]
    .filter((entry) => entry.isDirectory).map((entry) => entry.name);
  assert.ok(bundled.length >= 3, "the repository bundles skills");
  for (const name of bundled) {
    const row = page.locator("tr", { has: page.locator(`td:text-is("${name}")`) });
    assert.deepEqual(await row.locator("td").allInnerTexts().then((cells) => cells.slice(1, 3)), [
      "bundled",
      "usable",
    ], name);
  }
  const gated = page.locator("tr", { has: page.locator('td:text-is("kettle-control")') });
  assert.equal(
    await gated.locator("td").nth(2).innerText(),
    "hidden: needs program radar-no-such-kettle",
  );
  await saveScreenshot(page, "skills");
}

async function checkSummaries(page: Page, base: string): Promise<void> {
  await page.goto(`${base}summaries`);
  const headings = await page.locator("article.digest h2").allInnerTexts();
  assert.equal(headings.length, 3);
  assert.match(headings[0], /^Daily digest 2026-11-22 00:00/, "newest first");
  assert.match(headings[2], /^Weekly digest/);
  await page.waitForSelector("article.digest strong:has-text('Alice')");
  assert.match(await page.locator("article.digest").first().innerText(), /<script>/);
  assert.equal(await page.locator("article.digest img").count(), 0, "no images load");
  await page.fill("input[name=q]", "descaling");
  await Promise.all([page.waitForURL(/q=descaling/), page.click("button:has-text('Search')")]);
  await page.waitForSelector("h2:has-text('1 match for “descaling”')");
  assert.equal(await page.locator("article.digest").count(), 1);
  await saveScreenshot(page, "summaries");
}

async function checkPersonalities(page: Page, base: string, catalog: PersonalityCatalog) {
  await page.goto(`${base}personalities`);
  await page.waitForSelector("tr[data-personality=default] .badge:has-text('active')");
  assert.equal(
    await page.locator("tr[data-personality=default] a:has-text('Delete')").count(),
    0,
    "bundled personalities cannot be deleted",
  );

  // A bad name: the catalog's one line, status 400.
  await page.click("summary:has-text('Create a personality')");
  await page.fill("input[name=name]", "Night Owl!");
  const [refused] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    page.click("button:has-text('Create')"),
  ]);
  assert.equal(refused.status(), 400);
  await page.waitForSelector(".notice.error:has-text('a name is 1-64 lowercase letters')");

  // Create a directory personality, then edit its file with hostile text.
  await page.goto(`${base}personalities`);
  await page.click("summary:has-text('Create a personality')");
  await page.fill("input[name=name]", "night-owl");
  await page.check("input[name=directory]");
  await Promise.all([
    page.waitForURL(`${base}personalities/night-owl?done=created`),
    page.click("button:has-text('Create')"),
  ]);
  await page.waitForSelector("dd:has-text('directory')");
  await page.fill("textarea[name=text]", hostileText);
  await Promise.all([
    page.waitForURL(`${base}personalities/night-owl?done=saved`),
    page.click("button:has-text('Save')"),
  ]);
  await page.waitForSelector(".notice:has-text('Saved.')");
  assert.equal(await page.inputValue("textarea[name=text]"), hostileText, "saved as typed");
  assert.equal(catalog.show("night-owl")?.text, hostileText, "the real file holds it");
  assert.equal(await page.locator("main img").count(), 0);
  assert.equal(await pwned(page), false, "the file ran on its page");
  await saveScreenshot(page, "personality-edit");

  // Activate it from the list: the description shows the markup as text.
  await page.goto(`${base}personalities`);
  const row = page.locator("tr[data-personality=night-owl]");
  assert.match(await row.locator("td").nth(1).innerText(), /Up late <img src=x onerror=/);
  // The source column is short; the whole path is its title.
  const source = row.locator("td").nth(3);
  assert.equal(await source.innerText(), "personalities/night-owl");
  assert.match((await source.getAttribute("title")) ?? "", /^\/.+\/personalities\/night-owl$/);
  await Promise.all([
    page.waitForURL(`${base}personalities?done=used`),
    row.locator("button:has-text('Use night-owl')").click(),
  ]);
  await page.waitForSelector("tr[data-personality=night-owl] .badge:has-text('active')");
  assert.equal(catalog.activeName(), "night-owl");
  assert.equal(await pwned(page), false, "the file ran in the list");
  await saveScreenshot(page, "personalities");

  // Delete after the confirmation step.
  await page.click("a:has-text('Delete night-owl…')");
  await page.waitForSelector(".notice.warning:has-text('Delete the personality night-owl?')");
  await Promise.all([
    page.waitForURL(`${base}personalities?done=deleted`),
    page.click("button:has-text('Delete night-owl')"),
  ]);
  assert.equal(await page.locator("tr[data-personality=night-owl]").count(), 0);
  await page.waitForSelector("tr[data-personality=default] .badge:has-text('active')");
  assert.equal(catalog.show("night-owl"), undefined, "its folder is gone");
  assert.equal(catalog.activeName(), "default");
}

/** Three heartbeats a hook blocks set a hostile event aside; the home card's button puts it back. */
async function setAsideEvent(radar: Radar): Promise<void> {
  radar.hooks.register({
    name: "maintenance",
    point: "pre_agent_run",
    priority: 50,
    source: "test",
    description: "",
    handler: () => ({ blocked: true, message: "maintenance <b>window</b>" }),
  });
  radar.queue.enqueue({
    source: "mail work",
    kind: "new_mail",
    summary: 'Invoice <img src=x onerror="window.__pwned = 4">',
  }, new Date());
  for (let run = 0; run < blockedHeartbeatLimit; run++) {
    await radar.heartbeat.tick({ trigger: "manual" });
  }
  assert.equal(radar.queue.setAside().count, 1);
}

async function checkSetAside(page: Page, base: string, radar: Radar): Promise<void> {
  await page.goto(base);
  const card = page.locator("#set-aside");
  assert.match(await card.innerText(), /maintenance <b>window<\/b>/);
  assert.match(await card.locator("li").innerText(), /Invoice <img src=x onerror=/);
  assert.equal(await card.locator("img").count(), 0);
  await saveScreenshot(page, "dashboard-set-aside");
  await Promise.all([
    page.waitForURL(`${base}?requeued=1`),
    page.click("button:has-text('Put back in the queue')"),
  ]);
  await page.waitForSelector(".notice:has-text('1 event is back in the queue')");
  assert.equal(await page.locator("#set-aside").count(), 0);
  assert.equal(radar.queue.pendingCount(), 1, "back in the queue");
}

Deno.test(needing(["chromium"], {
  name: "Chromium: sources card, skills with their state, summaries with search, personalities " +
    "create → edit → activate → delete with hostile text that never runs, set-aside events " +
    "put back",
  // playwright keeps its pipe to the browser and timers of its own until the process exits.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const directory = Deno.makeTempDirSync({ prefix: "radar-web-pages-" });
    const dataDir = join(directory, "data");
    const configPath = join(directory, "radar.yaml");
    Deno.writeTextFileSync(configPath, 'llm:\n  base_url: "http://127.0.0.1:9"\n');
    const skill = join(dataDir, "skills", "kettle-control");
    Deno.mkdirSync(skill, { recursive: true });
    Deno.writeTextFileSync(
      join(skill, "SKILL.md"),
      "---\nname: kettle-control\ndescription: Boil water\nrequires:\n  bins: [radar-no-such-kettle]\n---\nBoil.\n",
    );
    const env = { HOME: directory, RADAR_DATA_DIR: dataDir, PATH: "/usr/bin:/bin" };
    const radar = await openRadar({ configPath, env, cwd: directory, logLevel: "error" });
    const db = openDatabase(radar.databasePath);
    const digests = new SqliteDigestStore(db);
    for (
      const [period, startsAt, endsAt, content] of [
        ["week", "2026-11-09", "2026-11-16", "- A week of kettle descaling"],
        ["day", "2026-11-21", "2026-11-22", "- Quiet day"],
        [
          "day",
          "2026-11-22",
          "2026-11-23",
          "- Met **Alice** <script>window.__pwned = 3</script> ![x](http://127.0.0.1:9/x.png)",
        ],
      ] as const
    ) {
      digests.save({
        period,
        startsAt: `${startsAt}T00:00:00.000Z`,
        endsAt: `${endsAt}T00:00:00.000Z`,
        content,
        createdAt: `${endsAt}T00:05:00.000Z`,
      });
    }
    db.close();
    await setAsideEvent(radar);
    const deps = await webDependenciesFromRuntime(radar, { env });
    const server = startWebServerWith(deps, { host: "127.0.0.1", port: 0 });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(10_000);
      const errors = collectPageErrors(page);
      await page.goto(server.loginLink());
      await page.waitForSelector(
        "#source-health [data-source='github github'][data-state=disabled]" +
          ":has-text('the gh CLI is not installed')",
      );
      await saveScreenshot(page, "dashboard-sources");
      await checkSkills(page, server.url);
      await checkSummaries(page, server.url);
      await checkPersonalities(page, server.url, await radar.personalities());
      await checkSetAside(page, server.url, radar);
      assert.equal(await pwned(page), false);
      // The refused create answers 400, which Chromium logs as a failed load.
      assert.deepEqual(errors.filter((text) => !/status of 400/.test(text)), []);
    } finally {
      await browser.close();
      await server.close();
      radar.close();
      Deno.removeSync(directory, { recursive: true });
    }
  },
}));
