/**
 * A backup keeps no secret-shaped value: not in the archived config (secret-named keys, the ntfy
 * topic, URLs beyond their origin, `--api-key` values, comments) and not in the database's copies
 * of it (the MCP approvals' URL and command line). Checked on the raw bytes of every entry.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { SqliteMcpApprovals } from "../../../src/adapters/sqlite/mcp_approvals.ts";
import { backupDatabase } from "../../../src/adapters/sqlite/maintenance.ts";
import { writeBackup } from "../../../src/adapters/backup/write_backup.ts";
import { argvWithoutSecrets, urlsToOrigins } from "../../../src/adapters/backup/secret_shapes.ts";
import { readArchive } from "./archive_helpers.ts";

const secrets = [
  "private-9f8e7d6c5b4a",
  "KEY-in-query-123456",
  "basic-auth-pass-9876",
  "sk-argv-secret-4242",
  "tk-joined-option-777",
  "sk-old-commented-out",
  "radar-topic-31337abc",
  "path-token-aaaabbbb",
];

const config = `# the old key was sk-old-commented-out
llm:
  base_url: "http://gpu-box.lan:11434"
notifications:
  ntfy:
    topic: radar-topic-31337abc
calendar:
  calendars:
    - name: home
      ics: "https://calendar.example.com/ical/ada/private-9f8e7d6c5b4a/basic.ics"
mcp:
  servers:
    - name: search
      url: "https://mcp.example.com/mcp?key=KEY-in-query-123456"
    - name: files
      command: ["npx", "files-server", "--api-key", "sk-argv-secret-4242", "--token=tk-joined-option-777"]
    - name: hook
      url: "https://ada:basic-auth-pass-9876@hooks.example.com/path-token-aaaabbbb"
`;

Deno.test("a backup keeps no secret-shaped value, in the config or in the database's copies of it", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-backup-secrets-" });
  const dataDir = join(home, "data");
  Deno.mkdirSync(dataDir);
  const db = openDatabase(join(dataDir, "radar.db"));
  try {
    const approvals = new SqliteMcpApprovals(db);
    const approval = {
      commandHash: "x",
      folders: [],
      readFolders: [],
      network: true,
      env: [],
      hosts: [],
      tools: [],
      approvedAt: "2026-11-23T18:00:00Z",
    };
    approvals.save({
      ...approval,
      name: "search",
      command: [],
      url: "https://mcp.example.com/mcp?key=KEY-in-query-123456",
    });
    approvals.save({
      ...approval,
      name: "files",
      command: [
        "npx",
        "files-server",
        "--api-key",
        "sk-argv-secret-4242",
        "--token=tk-joined-option-777",
      ],
      url: "",
    });
    const configPath = join(home, "radar.yaml");
    Deno.writeTextFileSync(configPath, config);
    const archive = join(home, "backup.tar.gz");
    const summary = await writeBackup({
      snapshotDatabase: (path) => backupDatabase(db, path),
      dataDir,
      configPath,
      radarVersion: "0.1.0",
      now: new Date("2026-11-23T18:15:00Z"),
    }, archive);
    const entries = await readArchive(archive);
    for (const [name, entry] of entries) {
      const latin1 = new TextDecoder("latin1").decode(entry.bytes);
      for (const secret of secrets) {
        assert.ok(!latin1.includes(secret), `${name} holds ${secret}`);
      }
    }
    const archived = entries.get("radar-backup/radar.yaml")!.text;
    assert.match(archived, /ics: "https:\/\/calendar\.example\.com"/);
    assert.match(archived, /url: "https:\/\/mcp\.example\.com"/);
    assert.match(archived, /base_url: "http:\/\/gpu-box\.lan:11434"/, "a bare origin is kept");
    assert.doesNotMatch(archived, /#/);
    assert.deepEqual(summary.secretsLeftOut, [
      "notifications.ntfy.topic",
      "calendar.calendars[0].ics",
      "mcp.servers[0].url",
      "mcp.servers[1].command",
      "mcp.servers[2].url",
    ]);
    assert.deepEqual(
      approvals.get("search")?.url,
      "https://mcp.example.com/mcp?key=KEY-in-query-123456",
      "the live database is untouched",
    );
  } finally {
    db.close();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("secret shapes: a URL keeps its origin; option values named like credentials go", () => {
  assert.deepEqual(urlsToOrigins("see https://a.example:8443/x?y=1#z and http://b.example/"), {
    text: "see https://a.example:8443 and http://b.example/",
    cut: true,
  });
  assert.deepEqual(urlsToOrigins("http://localhost:11434"), {
    text: "http://localhost:11434",
    cut: false,
  });
  assert.deepEqual(urlsToOrigins("ssh://git@host.example/repo"), {
    text: "ssh://host.example",
    cut: true,
  });
  assert.deepEqual(
    argvWithoutSecrets(["srv", "--password", "p", "--secret=s", "-v", "--api_key", "k"]).argv,
    ["srv", "--password", "", "--secret=", "-v", "--api_key", ""],
  );
  assert.deepEqual(argvWithoutSecrets(["ls", "-la"]), { argv: ["ls", "-la"], cut: false });
});
