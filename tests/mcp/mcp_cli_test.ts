/** `radar mcp add|approve|list|remove` end to end, with the hostile server as the program. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { toResult } from "../../src/core/tool.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { askContext, tempHome } from "../tools/tool_harness.ts";
import { approvalOf, denoDir, denoServer, hostileServerCopy } from "./mcp_harness.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteMcpApprovals } from "../../src/adapters/sqlite/mcp_approvals.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

function environment(home: string): Record<string, string> {
  return {
    HOME: home,
    RADAR_DATA_DIR: join(home, "data"),
    RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
    PATH: Deno.env.get("PATH") ?? "",
    DENO_DIR: denoDir,
  };
}

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "radar mcp add approves a server whose tools then join the registry; remove drops them",
  fn: async () => {
    const home = tempHome();
    const env = environment(home.home);
    const folder = join(home.home, "granted");
    Deno.mkdirSync(folder);
    try {
      const program = join(home.home, "program");
      const hostile = hostileServerCopy(program);
      const argv = [
        "mcp",
        "add",
        "evil",
        "--folder",
        folder,
        "--read",
        program,
        "--env",
        "DENO_DIR",
        "--",
      ];
      const refused = memoryIo(env, { cwd: home.home, interactive: false });
      assert.equal(await runCli([...argv, ...denoServer(hostile)], refused), 2);
      assert.match(refused.err.join(""), /Refusing `radar mcp add`/);

      const io = memoryIo(env, { cwd: home.home });
      assert.equal(await runCli([...argv, ...denoServer(hostile)], io), 0, io.err.join(""));
      assert.match(io.out.join(""), /Approved MCP server evil \(\d+ tools: echo/);
      assert.match(
        io.out.join(""),
        /It may touch: folders .*granted; reading .*program; no network; variables DENO_DIR/,
      );

      const list = memoryIo(env, { cwd: home.home });
      assert.equal(await runCli(["mcp", "list"], list), 0);
      assert.match(list.out.join(""), /^evil {2}approved {2}\(cli\)/m);

      const runtime = await openRadar({ env, cwd: home.home });
      try {
        const echo = (await runtime.agentStack()).registry.list().find((tool) =>
          tool.name === "mcp_evil__echo"
        );
        assert.equal(echo?.source, "mcp:evil");
        const result = toResult(await echo!.run({ text: "via registry" }, askContext()));
        assert.equal(result.text, "echo via registry");
      } finally {
        runtime.close();
      }

      const removed = memoryIo(env, { cwd: home.home });
      assert.equal(await runCli(["mcp", "remove", "evil"], removed), 0);
      const after = await openRadar({ env, cwd: home.home });
      try {
        const { registry } = await after.agentStack();
        assert.ok(!registry.list().some((tool) => tool.source === "mcp:evil"));
      } finally {
        after.close();
      }
      assert.equal(await runCli(["mcp", "remove", "evil"], memoryIo(env)), 3);
    } finally {
      home.dispose();
    }
  },
}));

Deno.test("radar mcp list shows a config server as pending, approve needs a known name", async () => {
  const home = tempHome();
  const env = environment(home.home);
  const configPath = join(home.home, "radar.yaml");
  Deno.writeTextFileSync(
    configPath,
    "mcp:\n  servers:\n    - name: files\n      command: [mcp-files, /srv]\n      folders: [/srv]\n",
  );
  try {
    const list = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["--config", configPath, "mcp", "list"], list), 0);
    assert.match(list.out.join(""), /^files {2}pending {2}\(config\) {2}mcp-files \/srv/m);
    assert.match(list.out.join(""), /folders \/srv; no network/);
    const unknown = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["--config", configPath, "mcp", "approve", "nope"], unknown), 3);
  } finally {
    home.dispose();
  }
});

Deno.test("radar mcp list says when an approved server's tools changed since approval", async () => {
  const home = tempHome();
  const env = environment(home.home);
  try {
    Deno.mkdirSync(env.RADAR_DATA_DIR, { recursive: true });
    const db = openDatabase(join(env.RADAR_DATA_DIR, "radar.db"));
    const approvals = new SqliteMcpApprovals(db);
    approvals.save(approvalOf("notes", ["mcp-notes"]));
    approvals.markToolsChanged("notes", ["echo: changed", "sneaky: new"], new Date());
    db.close();
    const list = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["mcp", "list"], list), 0, list.err.join(""));
    assert.match(
      list.out.join(""),
      /NEEDS RE-APPROVAL: its tools changed since approval \(echo: changed, sneaky: new\); only unchanged tools run \(radar mcp approve notes\)/,
    );
  } finally {
    home.dispose();
  }
});
