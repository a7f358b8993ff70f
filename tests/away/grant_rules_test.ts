/**
 * Standing grants as rules, against a real home folder: globs over real paths (links and `..`
 * resolved), never over protected places or Radar's own state, suggestions from a call.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import {
  allGrants,
  describeGrant,
  grantCheck,
  grantMatches,
  grantProblems,
  suggestGrant,
} from "../../src/away/grant_rules.ts";
import { defineTool } from "../../src/core/tool_definition.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { grantPathPolicy } from "../../src/away/grant_paths.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteGrantStore } from "../../src/adapters/sqlite/grant_store.ts";

const moveTool = defineTool({
  name: "move_file",
  description: "Move a file",
  effect: "local_write",
  pathArguments: ["source", "destination"],
  input: z.object({ source: z.string(), destination: z.string(), copy: z.boolean().optional() }),
  run: () => Promise.resolve("moved"),
});

const fetchTool = defineTool({
  name: "fetch_url",
  description: "Fetch",
  effect: "sends_out",
  input: z.object({ url: z.string() }),
  run: () => Promise.resolve("fetched"),
});

function withHome(work: (home: string, paths: ReturnType<typeof grantPathPolicy>) => void) {
  const home = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-grants-" }));
  try {
    for (const folder of ["Downloads/sub", "Documents/Filed", ".ssh", "data"]) {
      Deno.mkdirSync(join(home, folder), { recursive: true });
    }
    Deno.writeTextFileSync(join(home, ".ssh/id_ed25519"), "key");
    Deno.symlinkSync(join(home, ".ssh/id_ed25519"), join(home, "Downloads/key.pdf"));
    const paths = grantPathPolicy({
      config: defaultConfig(),
      dataDir: join(home, "data"),
      env: { HOME: home },
      cwd: home,
    });
    work(home, paths);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

const filing = {
  tool: "move_file",
  arguments: { source: "~/Downloads/*.pdf", destination: "~/Documents/Filed/**" },
};

Deno.test("a path grant matches real paths, not look-alikes, links or hidden files", () => {
  withHome((_home, paths) => {
    const matches = (source: string, destination = "~/Documents/Filed/2026/a.pdf") =>
      grantMatches(filing, moveTool, { source, destination }, paths);
    assert.equal(matches("~/Downloads/invoice.pdf"), true);
    assert.equal(matches("~/Downloads/sub/../invoice.pdf"), true);
    assert.equal(matches("~/Downloads/sub/invoice.pdf"), false, "* stays in its folder");
    assert.equal(matches("~/Downloads/.hidden.pdf"), false);
    assert.equal(matches("~/Downloads/invoice.PDF.exe"), false);
    assert.equal(matches("~/Downloads/key.pdf"), false, "a link into ~/.ssh is not in Downloads");
    assert.equal(matches("~/Downloads/a.pdf", "~/Documents/Other/a.pdf"), false);
    assert.equal(matches("~/Downloads/a.pdf", "~/Documents/Filed/../../.ssh/a.pdf"), false);
    assert.equal(
      grantMatches(filing, moveTool, { source: "~/Downloads/a.pdf" }, paths),
      false,
      "a named argument must be there",
    );
    assert.equal(grantMatches(filing, fetchTool, { source: "~/Downloads/a.pdf" }, paths), false);
  });
});

Deno.test("a grant never covers protected places or Radar's own state", () => {
  withHome((home, paths) => {
    const problems = (pattern: string) =>
      grantProblems({ tool: "move_file", arguments: { destination: pattern } }, moveTool, paths);
    assert.deepEqual(problems("~/Documents/Filed/**"), []);
    assert.match(problems("~/**")[0], /^destination: ~ holds .*\.ssh .*name a folder inside it/);
    assert.match(problems("/**")[0], /holds/);
    assert.match(problems("~/.ssh/*")[0], /^destination: ~\/\.ssh.*protected by rule/);
    assert.match(problems(`${home}/data/**`)[0], /Radar's data folder/);
    assert.match(problems("~/.config/autostart/*.desktop")[0], /protected by rule/);
    assert.match(problems("Documents/**")[0], /starts with \/ or ~\//);
    assert.match(problems("~/Documents/../.ssh/*")[0], /no \. or \.\./);
  });
});

Deno.test("a grant names a known tool and at least one of its arguments", () => {
  withHome((_home, paths) => {
    assert.match(grantProblems({ tool: "nope", arguments: {} }, undefined, paths)[0], /no tool/);
    assert.match(
      grantProblems({ tool: "fetch_url", arguments: {} }, fetchTool, paths)[0],
      /at least one argument pattern/,
    );
    assert.match(
      grantProblems({ tool: "fetch_url", arguments: { host: "x" } }, fetchTool, paths)[0],
      /has no argument "host"/,
    );
    assert.deepEqual(
      grantProblems(
        { tool: "fetch_url", arguments: { url: "https://api.example.com/**" } },
        fetchTool,
        paths,
      ),
      [],
    );
    assert.equal(
      grantMatches(
        { tool: "fetch_url", arguments: { url: "https://api.example.com/**" } },
        fetchTool,
        { url: "https://api.example.com/v1/items?x=1" },
        paths,
      ),
      true,
    );
    assert.equal(
      grantMatches(
        { tool: "fetch_url", arguments: { url: "https://api.example.com/**" } },
        fetchTool,
        { url: "https://api.example.com.evil.example/x" },
        paths,
      ),
      false,
    );
  });
});

Deno.test("Always allow suggests the folder and kind of file, not the one file", () => {
  withHome((_home, paths) => {
    assert.deepEqual(
      suggestGrant(moveTool, {
        source: "~/Downloads/scan 42.pdf",
        destination: "~/Documents/Filed/invoice/2026-11-02 ACME invoice.pdf",
      }, paths),
      { source: "~/Downloads/*.pdf", destination: "~/Documents/Filed/invoice/**" },
    );
    assert.deepEqual(
      suggestGrant(fetchTool, { url: "https://api.example.com/v1?q=1" }, paths),
      { url: "https://api.example.com/**" },
    );
  });
});

Deno.test("the grant check: config rules and stored grants, uses counted, broken ones ignored", () => {
  withHome((_home, paths) => {
    const db = openDatabase(":memory:");
    const store = new SqliteGrantStore(db);
    const clock = new ManualClock(new Date("2026-11-24T03:00:00Z"));
    const configured = [
      { ...filing, note: "from radar.yaml" },
      { tool: "move_file", arguments: { destination: "~/**" }, note: "too broad" },
    ];
    const check = grantCheck({ store, configured: () => configured, paths, clock });
    const call = { source: "~/Downloads/a.pdf", destination: "~/Documents/Filed/a.pdf" };
    assert.equal(check(moveTool, call)?.id, "config:1");
    assert.equal(check(moveTool, { ...call, destination: "~/a.pdf" }), undefined, "~/** ignored");
    const stored = store.add({
      tool: "fetch_url",
      arguments: { url: "https://api.example.com/**" },
      note: "",
    }, clock.now());
    assert.equal(check(fetchTool, { url: "https://api.example.com/x" })?.id, stored.id);
    assert.equal(store.get(stored.id)?.uses, 1);
    assert.deepEqual(
      allGrants({ store, configured: () => configured }).map((grant) => grant.id),
      ["config:1", "config:2", "1"],
    );
    assert.equal(
      describeGrant(filing),
      "move_file source=~/Downloads/*.pdf destination=~/Documents/Filed/**",
    );
    db.close();
  });
});

Deno.test("a grant says where private data may go: exact origins, stored and checked", () => {
  withHome((_home, paths) => {
    const db = openDatabase(":memory:");
    const store = new SqliteGrantStore(db);
    const clock = new ManualClock(new Date("2026-11-24T03:00:00Z"));
    const calendar = store.add({
      tool: "fetch_url",
      arguments: { url: "https://mycalendar.example/**" },
      note: "",
      privateDataTo: ["https://mycalendar.example"],
    }, clock.now());
    const plain = store.add({
      tool: "fetch_url",
      arguments: { url: "https://news.example/**" },
      note: "",
    }, clock.now());
    assert.deepEqual(store.get(calendar.id)?.privateDataTo, ["https://mycalendar.example"]);
    assert.deepEqual(store.get(plain.id)?.privateDataTo, []);
    const check = grantCheck({ store, configured: () => [], paths, clock });
    const call = { url: "https://mycalendar.example/dav/add" };
    assert.equal(check(fetchTool, call, ["https://mycalendar.example"])?.id, calendar.id);
    // Another port, a look-alike host: the same arguments grant, but not for private data.
    assert.equal(check(fetchTool, call, ["https://mycalendar.example:8443"]), undefined);
    assert.equal(check(fetchTool, call, ["https://calendar.example"]), undefined);
    const news = { url: "https://news.example/today" };
    assert.equal(check(fetchTool, news)?.id, plain.id, "the arguments alone still match");
    assert.equal(check(fetchTool, news, ["https://news.example"]), undefined, "no private data");
    assert.equal(
      describeGrant(store.get(calendar.id)!),
      "fetch_url url=https://mycalendar.example/** private-data-to=https://mycalendar.example",
    );
    assert.deepEqual(
      grantProblems(
        { tool: "fetch_url", arguments: { url: "https://x.example/**" }, privateDataTo: ["*.x"] },
        fetchTool,
        paths,
      ),
      [
        'private data goes to origins (scheme, host and port, e.g. https://mycalendar.example), not "*.x"',
      ],
    );
    db.close();
  });
});
