/**
 * `radar serve` watches the skill folders: with real files on disk, an added, edited or removed
 * SKILL.md under `<data>/skills` or `skills.dirs` reaches the catalog without a restart, while the
 * catalog (trusting the watcher) skips its per-request file checks. A `skills.dirs` changed in
 * radar.yaml through the dashboard's /config is applied live: the catalog and the watcher move to
 * the new folders.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { skillSources } from "../../src/daemon/skill_watchers.ts";
import { createApp } from "../../web/app.tsx";
import { webDependenciesFromRuntime } from "../../web/runtime_dependencies.ts";
import { postForm } from "../web/web_fixture.ts";
import { withTestDaemon } from "../helpers/test_radar.ts";

function writeSkill(dir: string, name: string, description: string): void {
  Deno.mkdirSync(join(dir, name), { recursive: true });
  Deno.writeTextFileSync(
    join(dir, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n\nDo the thing.\n`,
  );
}

/** Polls `check` until it holds (the OS delivers file events asynchronously). */
async function eventually(what: string, check: () => boolean): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`not seen within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("the daemon's skill watcher invalidates the catalog when a SKILL.md changes", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-skills-" });
  const extra = join(dir, "team-skills");
  writeSkill(extra, "weekly-notes", "Write the weekly notes");
  const yaml = `radar:\n  timezone: "UTC"\nskills:\n  dirs: ["${extra}"]\n`;
  try {
    await withTestDaemon({ yaml }, async ({ runtime }) => {
      const catalog = runtime.skillCatalog;
      const names = () => catalog.discover().skills.map((skill) => skill.name);
      const description = (name: string) =>
        catalog.discover().skills.find((skill) => skill.name === name)?.description;
      assert.ok(names().includes("weekly-notes"));
      const [source] = skillSources(runtime);
      source.start();
      try {
        assert.equal(catalog.watched, true, "every skill folder is watched");
        const dataSkills = join(runtime.dataDir, "skills");
        assert.ok(Deno.statSync(dataSkills).isDirectory, "<data>/skills is created to be watched");
        assert.equal(description("weekly-notes"), "Write the weekly notes");

        writeSkill(dataSkills, "plant-care", "Water the plants");
        await eventually("a new skill in <data>/skills", () => names().includes("plant-care"));

        // The catalog trusts the watcher and checks no file itself: only the watcher's
        // invalidation makes these changes visible.
        writeSkill(extra, "weekly-notes", "Write the weekly NOTES");
        await eventually(
          "an edited description in skills.dirs",
          () => description("weekly-notes") === "Write the weekly NOTES",
        );

        Deno.removeSync(join(dataSkills, "plant-care"), { recursive: true });
        await eventually("a removed skill", () => !names().includes("plant-care"));
      } finally {
        source.close();
      }
      assert.equal(catalog.watched, false, "after close the catalog checks files again");
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a missing skills.dirs folder leaves the catalog checking files on each look", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-skills-" });
  const missing = join(dir, "not-yet");
  try {
    await withTestDaemon(
      { yaml: `radar:\n  timezone: "UTC"\nskills:\n  dirs: ["${missing}"]\n` },
      ({ runtime }) => {
        const [source] = skillSources(runtime);
        source.start();
        try {
          assert.equal(runtime.skillCatalog.watched, false);
          writeSkill(missing, "late-skill", "Appears later");
          assert.ok(
            runtime.skillCatalog.discover().skills.some((skill) => skill.name === "late-skill"),
          );
        } finally {
          source.close();
        }
      },
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a skills.dirs change saved on /config moves the catalog and the watcher to the new folders", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-skills-" });
  const before = join(dir, "old-skills");
  const after = join(dir, "new-skills");
  writeSkill(before, "old-notes", "Old notes");
  writeSkill(after, "new-notes", "New notes");
  const token = "skill-dirs-live-token-0123456789";
  const yaml = (folder: string) =>
    `radar:\n  timezone: "UTC"\nweb:\n  auth_token: "${token}"\nskills:\n  dirs: ["${folder}"]\n`;
  try {
    await withTestDaemon({ yaml: yaml(before) }, async ({ runtime, dir: home }) => {
      const catalog = runtime.skillCatalog;
      const names = () => catalog.discover().skills.map((skill) => skill.name);
      const [source] = skillSources(runtime);
      source.start();
      try {
        assert.ok(names().includes("old-notes") && !names().includes("new-notes"), names().join());
        const app = createApp(
          await webDependenciesFromRuntime(runtime, {
            daemon: { startedAt: new Date() },
            env: {},
            cwd: home,
          }),
        );
        const saved = await app.request(
          "/config",
          postForm({ text: yaml(after) }, { Authorization: `Bearer ${token}` }),
        );
        const answer = await saved.text();
        assert.equal(saved.status, 200, answer);
        assert.match(answer, /Applied now: skills\.dirs\./);
        assert.doesNotMatch(answer, /Restart radar serve/);
        assert.match(Deno.readTextFileSync(join(home, "radar.yaml")), /new-skills/);
        assert.deepEqual(runtime.skillRoots.map((root) => root.path).slice(-1), [after]);

        assert.ok(names().includes("new-notes"), names().join());
        assert.ok(!names().includes("old-notes"), "the old folder is no longer searched");
        assert.equal(catalog.watched, true, "the new folders are watched");
        // Only the new watcher's invalidation can make this visible (the catalog trusts it).
        writeSkill(after, "fresh-notes", "Fresh notes");
        await eventually("a skill added to the new folder", () => names().includes("fresh-notes"));

        const unchanged = await app.request(
          "/config",
          postForm({ text: yaml(after) }, { Authorization: `Bearer ${token}` }),
        );
        assert.match(await unchanged.text(), /Nothing changed\./);
      } finally {
        source.close();
      }
      assert.equal(catalog.watched, false);
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
