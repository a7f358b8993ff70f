/**
 * `radar serve` on a database whose middle pages are noise: its integrity check at start finds
 * it, and from then on it writes nothing (a dashboard write gets the one line, a file dropped in
 * a watched folder is not recorded), every dashboard page says so, and exactly ONE notification
 * reaches ntfy — not a second one after a restart. Real subprocesses, a fake ntfy server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type FakeNtfyServer, startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { createRadarHome, type RadarHome, startRadarServe } from "../helpers/radar_process.ts";
import { createFactsDatabase, pagesOf, scramblePages } from "../helpers/scrambled_database.ts";
import { dashboardTokenPath } from "../../web/dashboard_token.ts";
import { until } from "../helpers/until.ts";

function setUp(ntfy: FakeNtfyServer): { radar: RadarHome; inbox: string; path: string } {
  const radar = createRadarHome("");
  const inbox = join(radar.home, "Inbox");
  Deno.mkdirSync(inbox);
  Deno.mkdirSync(radar.dataDir);
  Deno.writeTextFileSync(
    radar.configPath,
    `llm:\n  base_url: "http://127.0.0.1:9"\n  retries: 0\nnotifications:\n  ntfy:\n` +
      `    url: "${ntfy.url}"\n    topic: "radar-test"\nwatchers:\n  - path: "${inbox}"\n` +
      `    pattern: "*.pdf"\n    action: "new_pdf_detected"\n`,
  );
  const path = join(radar.dataDir, "radar.db");
  createFactsDatabase(path, 3_000);
  const leaves = pagesOf(path).filter((page) => page.name === "facts" && page.pagetype === "leaf");
  scramblePages(path, [leaves[Math.floor(leaves.length / 2)].pageno]);
  return { radar, inbox, path };
}

Deno.test({
  name:
    "radar serve finds a damaged database at start: writes nothing, says so on every page, notifies once",
  sanitizeResources: false,
  fn: async () => {
    const ntfy = startFakeNtfy();
    const { radar, inbox, path } = setUp(ntfy);
    try {
      let serve = await startRadarServe(radar);
      const token = Deno.readTextFileSync(dashboardTokenPath(radar.dataDir)).trim();
      const headers = { authorization: `Bearer ${token}` };
      try {
        await until("the notification", () => ntfy.requests.length > 0);
        const [sent] = ntfy.requests;
        assert.equal(sent.path, "/radar-test");
        assert.ok(sent.body.includes(`The database ${path} is damaged`), sent.body);
        assert.match(sent.body, /radar db recover/);

        for (const page of ["/", "/memory", "/history"]) {
          const html = await (await fetch(`${serve.url}${page}`, { headers })).text();
          assert.ok(html.includes(`The database ${path} is damaged`), page);
          assert.match(html, /Radar stopped writing to it\./);
        }
        const added = await fetch(`${serve.url}/memory`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ category: "learned_fact", content: "written anyway" }),
        });
        const answer = await added.text();
        assert.ok(added.status >= 400, `refused (${added.status})`);
        assert.match(
          answer,
          /Cannot save the fact: the database is damaged \([^)]+\), so Radar stopped writing to it: run `radar db check`/,
        );

        Deno.writeTextFileSync(join(inbox, "scan.pdf"), "%PDF-1.4 after the damage");
        await new Promise((resolve) => setTimeout(resolve, 1500));
        assert.match(serve.stderr(), /the database is damaged; Radar stopped writing to it/);
      } finally {
        assert.equal(await serve.stop(), 0);
      }
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        const stored = db.prepare(
          "SELECT COUNT(*) AS n FROM watched_files WHERE path LIKE '%scan.pdf'",
        ).get() as { n: number };
        assert.equal(stored.n, 0, "the watcher recorded nothing");
        const written = db.prepare(
          `SELECT COUNT(*) AS n FROM facts_fts WHERE facts_fts MATCH '"written anyway"'`,
        ).get() as { n: number };
        assert.equal(written.n, 0, "the dashboard's fact was not written");
      } finally {
        db.close();
      }

      // A restart: still refused, still shown, but no second notification.
      serve = await startRadarServe(radar);
      try {
        const html = await (await fetch(`${serve.url}/`, { headers })).text();
        assert.ok(html.includes(`The database ${path} is damaged`));
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } finally {
        assert.equal(await serve.stop(), 0);
      }
      assert.equal(ntfy.requests.length, 1, "ONE notification");
    } finally {
      await ntfy.close();
      radar.remove();
    }
  },
});
