/**
 * A damaged database is named, isolated and recoverable. A real radar.db with 5,000 facts has
 * pages in its middle overwritten with noise (facts, their full-text index and an index), then
 * real `radar` subprocesses: the first command that meets the damage prints one line naming the
 * file and the next step, every later command refuses the file with that line (the damage may
 * sit where the command never reads), `radar db check` lists it, and `radar db recover` gets back
 * every fact SQLite can still read — exactly the facts not on the scrambled pages — into a new
 * radar.db, keeping the damaged file aside.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { createRadarHome, type RadarHome, runRadar } from "../helpers/radar_process.ts";
import {
  createFactsDatabase,
  type PageInfo,
  pagesOf,
  scramblePages,
} from "../helpers/scrambled_database.ts";

function oneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  return lines[0];
}

/** The one line: the file, what SQLite said, and the commands that get out of it. */
function assertDamageLine(stderr: string, path: string, detail: RegExp): void {
  const line = oneLine(stderr);
  assert.ok(line.startsWith(`radar: The database ${path} is damaged (`), line);
  assert.match(line, detail);
  for (
    const next of ["`radar db check`", "`radar restore`", "`radar backup`", "`radar db recover`"]
  ) {
    assert.ok(line.includes(next), `${next} in: ${line}`);
  }
  assert.doesNotMatch(line, /unexpected failure/);
}

/** Every `step`-th page of `pages` from the middle half. */
function middlePages(pages: PageInfo[], count: number): PageInfo[] {
  const start = Math.floor(pages.length / 4);
  const step = Math.max(2, Math.floor(pages.length / 2 / count));
  return Array.from({ length: count }, (_, index) => pages[start + index * step]);
}

function home(): RadarHome {
  const radar = createRadarHome("llm:\n  retries: 0\n");
  Deno.mkdirSync(radar.dataDir);
  return radar;
}

Deno.test({
  name:
    "a page-scrambled database: one line with path and next step on every command; db recover gets back every readable fact",
  sanitizeResources: false,
  fn: async () => {
    const radar = home();
    const server = FakeLlmServer.start();
    const path = join(radar.dataDir, "radar.db");
    const run = (...args: string[]) =>
      runRadar(radar.home, args, {
        env: { RADAR_CONFIG: radar.configPath, RADAR_LLM_BASE_URL: server.url },
      });
    try {
      const facts = createFactsDatabase(path, 5_000);
      const pages = pagesOf(path);
      const factLeaves = middlePages(
        pages.filter((page) => page.name === "facts" && page.pagetype === "leaf"),
        4,
      );
      const others = [
        ...middlePages(pages.filter((page) => page.name === "facts_fts_data"), 2),
        ...middlePages(pages.filter((page) => page.name === "facts_category_created"), 1),
      ];
      const lost = factLeaves.reduce((sum, page) => sum + page.ncell, 0);
      assert.ok(lost > 0 && lost < facts.size / 10, `lost ${lost}`);
      scramblePages(path, [...factLeaves, ...others].map((page) => page.pageno));

      // The first command to meet it: SQLite's words, the path, the way out.
      const listed = await run("memory", "list");
      assert.equal(listed.code, 1, listed.stdout);
      assertDamageLine(listed.stderr, path, /is damaged \(database disk image is malformed\)/);

      // Every later command refuses the file at once, whatever it would have read.
      for (
        const args of [
          ["status"],
          ["history"],
          ["ask", "what is in the blue folder?"],
          ["memory", "add", "a new fact"],
          ["memory", "search", "tax"],
        ]
      ) {
        const refused = await run(...args);
        assert.equal(refused.code, 1, `${args.join(" ")}: ${refused.stdout}`);
        assertDamageLine(
          refused.stderr,
          path,
          /found \d{4}-\d\d-\d\d \d\d:\d\d UTC: database disk image is malformed/,
        );
      }
      assert.equal(server.requests.length, 0, "no model call on a damaged database");

      const checked = await run("db", "check");
      assert.equal(checked.code, 1);
      assert.match(checked.stdout, new RegExp(`Database ${path} is damaged:`));
      assert.match(checked.stdout, /radar db recover/);

      const recovered = await run("db", "recover", "--json");
      assert.equal(recovered.code, 0, recovered.stderr);
      const report = JSON.parse(recovered.stdout);
      const factsTable = report.tables.find((table: { name: string }) => table.name === "facts");
      assert.equal(factsTable.copied, facts.size - lost, "every fact not on a scrambled page");
      assert.equal(factsTable.complete, false);
      assert.equal(factsTable.unreadableStretches, 4);
      assert.equal(report.integrity, "ok");
      assert.ok(Deno.statSync(report.keptAt).isFile, "the damaged file is kept aside");
      assert.ok(report.keptAt.startsWith(join(radar.dataDir, "damaged")));

      // The new radar.db holds exactly the readable facts, unchanged, and works again.
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        const rows = db.prepare("SELECT id, content FROM facts").all() as Array<
          { id: number; content: string }
        >;
        assert.equal(rows.length, facts.size - lost);
        for (const row of rows) assert.equal(row.content, facts.get(row.id), `fact ${row.id}`);
        assert.equal(
          (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string })
            .integrity_check,
          "ok",
        );
      } finally {
        db.close();
      }
      const searched = await run("memory", "search", "blue", "folder", "--json");
      assert.equal(searched.code, 0, searched.stderr);
      assert.ok(JSON.parse(searched.stdout).length > 0, "the full-text index was rebuilt");
      const status = await run("status");
      assert.match(status.stdout, /integrity: ok/);
    } finally {
      await server.close();
      radar.remove();
    }
  },
});

Deno.test({
  name: "radar ask stops with the one line when a tool meets a damaged page (no answer around it)",
  sanitizeResources: false,
  fn: async () => {
    const radar = home();
    const server = FakeLlmServer.start();
    const path = join(radar.dataDir, "radar.db");
    try {
      createFactsDatabase(path, 2_000);
      // The whole full-text index of facts is noise: any recall meets it.
      scramblePages(
        path,
        pagesOf(path).filter((page) => page.name === "facts_fts_data" && page.pageno > 1).map((
          page,
        ) => page.pageno),
      );
      server.reply(
        ollamaToolCall("recall", { query: "tax papers" }),
        ollamaText("I could not find anything."),
      );
      const asked = await runRadar(radar.home, ["ask", "where are my tax papers?"], {
        env: { RADAR_CONFIG: radar.configPath, RADAR_LLM_BASE_URL: server.url },
      });
      assert.equal(asked.code, 1, asked.stdout);
      assertDamageLine(asked.stderr, path, /is damaged \(database disk image is malformed\)/);
      assert.equal(asked.stdout, "", "no answer printed around the damage");
      assert.equal(server.requests.length, 1, "the run stopped at the tool call");
    } finally {
      await server.close();
      radar.remove();
    }
  },
});
