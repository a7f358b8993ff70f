/**
 * An approved MCP server whose tool description changed since approval (an updated server, an
 * HTTP server changed on its side) is never lost silently: the call is refused with what to do,
 * the person is told once (a notification), `radar mcp list` and the dashboard say it needs
 * re-approval, and `radar mcp approve` shows the new description and asks before approving it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { discoverTools } from "../../src/mcp/mcp_servers.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { startHttpMcpServer } from "../fixtures/mcp/http_server.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { tempHome } from "../tools/tool_harness.ts";
import { until } from "../helpers/until.ts";
import { approvalOf } from "./mcp_harness.ts";

Deno.test("a tool whose description changed after approval: refused, told once, listed as needing re-approval, re-approved after a look", async () => {
  const server = startHttpMcpServer();
  const ntfy = startFakeNtfy();
  const home = tempHome();
  try {
    const configPath = join(home.home, "radar.yaml");
    Deno.writeTextFileSync(
      configPath,
      `mcp:\n  servers:\n    - name: shouty\n      url: "${server.url}"\n` +
        `notifications:\n  ntfy: { url: "${ntfy.url}", topic: "radar" }\n`,
    );
    const env = {
      HOME: home.home,
      RADAR_DATA_DIR: join(home.home, "data"),
      RADAR_CONFIG: configPath,
      RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
    };
    // Approved when the tool said something else.
    const setup = await openRadar({ env, cwd: home.home, logLevel: "error" });
    try {
      const approval = approvalOf("shouty", [], { url: server.url, hosts: ["127.0.0.1"] });
      const tools = await discoverTools({ ...setup, env, cwd: home.home }, approval);
      setup.mcp.approvals.save({
        ...approval,
        tools: tools.map((tool) => ({ ...tool, description: "Shouts its text." })),
      });
    } finally {
      setup.close();
    }

    const call = async () => {
      const radar = await openRadar({ env, cwd: home.home, logLevel: "error" });
      try {
        const execution = await (await radar.agentStack()).registry.execute(
          { id: "1", name: "mcp_shouty__shout", arguments: '{"text":"hi"}' },
          {
            offered: new Set(["mcp_shouty__shout"]),
            context: { kind: "ask", interactive: false, signal: new AbortController().signal },
            maxResultChars: 1000,
            elapsed: () => 0,
          },
        );
        return execution.result;
      } finally {
        radar.close();
      }
    };
    const refused = await call();
    assert.equal(refused.outcome, "refused");
    assert.match(refused.text, /changed its tool shout .*radar mcp approve shouty/);
    await until("the notice", () => ntfy.requests.length > 0); // sent beside the refusal
    assert.deepEqual(ntfy.requests.map((request) => request.headers.title), [
      "MCP server shouty changed its tools",
    ]);
    assert.match(ntfy.requests[0].body, /shout: changed .*radar mcp approve shouty$/);
    await call(); // flagged already: nothing more to tell
    assert.equal(ntfy.requests.length, 1, "told once, not at every call");

    const list = memoryIo(env, { cwd: home.home });
    assert.equal(await runCli(["mcp", "list"], list), 0);
    assert.match(list.out.join(""), /^shouty {2}NEEDS RE-APPROVAL {2}\(config\)/m);

    // The person looks: the new description is shown, and a no approves nothing.
    const declined = memoryIo(env, { cwd: home.home, lines: ["n"] });
    assert.equal(await runCli(["mcp", "approve", "shouty"], declined), 2);
    assert.equal(
      declined.out.join(""),
      "MCP server shouty changed its tools since you approved them:\n" +
        '  shout (changed): "Upper-cases its text.", was "Shouts its text."\n',
    );
    assert.match(declined.err.join(""), /Approve shouty with its tools as they are now\? \[y\/N\]/);
    assert.match(
      declined.err.join(""),
      /Nothing was approved: shouty's changed tools stay refused/,
    );
    assert.equal((await call()).outcome, "refused");

    const approved = memoryIo(env, { cwd: home.home, lines: ["y"] });
    assert.equal(await runCli(["mcp", "approve", "shouty"], approved), 0, approved.err.join(""));
    assert.match(approved.out.join(""), /Approved MCP server shouty \(1 tools: shout\)/);
    const after = await call();
    assert.deepEqual([after.outcome, after.text], ["ok", "HI"]);
    const listed = memoryIo(env, { cwd: home.home });
    await runCli(["mcp", "list"], listed);
    assert.match(listed.out.join(""), /^shouty {2}approved {2}\(config\)/m);
  } finally {
    await server.close();
    await ntfy.close();
    home.dispose();
  }
});
