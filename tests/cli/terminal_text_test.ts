/**
 * Issue 23, class 4 (terminal side): text Radar did not write never drives the terminal. Every
 * command's output goes through one cleaner (`textForTerminal`, applied to the CLI's stdout and
 * stderr by `runCli`), so escape sequences in a digest, an eval run's tool names or an MCP
 * server's tool list reach the screen as nothing, whichever command prints them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { runCli } from "../../src/cli/program.ts";
import { textForTerminal } from "../../src/core/terminal_text.ts";
import { SqliteDigestStore } from "../../src/adapters/sqlite/digest_store.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { denoDir, denoServer, hostileServerCopy } from "../mcp/mcp_harness.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

/** Clears the screen, sets the window title, writes the clipboard (OSC 52), hides text. */
const hostile = "\u001b[2J\u001b]0;owned\u0007\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31mred" +
  "\r\u202eevil\u0008\u0000";

function assertClean(text: string, where: string): void {
  // deno-lint-ignore no-control-regex
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  assert.ok(!control.test(text), `${where}: ${JSON.stringify(text)}`);
}

Deno.test("textForTerminal keeps text, newlines and tabs and drops every control sequence", () => {
  assert.equal(textForTerminal("a\tb\nc ✓ ünï"), "a\tb\nc ✓ ünï");
  assert.equal(textForTerminal("line\r\nnext"), "line\nnext");
  const cleaned = textForTerminal(hostile);
  assertClean(cleaned, "cleaned");
  assert.match(cleaned, /red/);
  assert.match(cleaned, /evil/);
  assert.ok(!cleaned.includes("owned"), "an OSC title is dropped whole");
});

Deno.test("radar digest list prints a digest's escape sequences as nothing", async () => {
  await withCliHome(async (env) => {
    Deno.mkdirSync(env.RADAR_DATA_DIR, { recursive: true });
    const db = openDatabase(join(env.RADAR_DATA_DIR, "radar.db"));
    new SqliteDigestStore(db).save({
      period: "day",
      startsAt: "2026-11-23T00:00:00.000Z",
      endsAt: "2026-11-24T00:00:00.000Z",
      content: `- Mail from Bob: ${hostile}`,
      createdAt: "2026-11-24T07:00:00.000Z",
    });
    db.close();
    for (const command of [["digest", "list"], ["digest", "search", "Bob"]]) {
      const io = memoryIo(env);
      assert.equal(await runCli(command, io), 0, io.err.join(""));
      const out = io.out.join("");
      assert.match(out, /Mail from Bob/);
      assertClean(out, command.join(" "));
    }
  });
});

Deno.test("radar eval prints a model's escape-sequence tool name as nothing", async () => {
  const server = FakeLlmServer.start().reply(
    ollamaToolCall(`list${hostile}`, {}),
    ollamaText(`Paris ${hostile}`),
  );
  try {
    await withCliHome(async (env) => {
      const io = memoryIo({ ...env, RADAR_LLM_BASE_URL: server.url });
      await runCli(["eval", "--only", "no-tool"], io);
      const all = io.out.join("") + io.err.join("");
      assert.match(all, /no-tool-needed/);
      assertClean(all, "radar eval");
    });
  } finally {
    await server.close();
  }
});

Deno.test(needing([onLinux, "bubblewrap"], {
  name: "radar mcp add prints a server's escape-sequence tool names as nothing",
  fn: async () => {
    await withCliHome(async (env, home) => {
      // An environment variable cannot hold a NUL byte.
      const withoutNul = hostile.replace("\u0000", "");
      const program = join(home, "program");
      const server = hostileServerCopy(program);
      const io = memoryIo(
        {
          ...env,
          PATH: Deno.env.get("PATH") ?? "",
          DENO_DIR: denoDir,
          HOSTILE_EXTRA_TOOL: withoutNul,
        },
        { cwd: home },
      );
      const argv = ["mcp", "add", "evil", "--read", program, "--env", "DENO_DIR", "--env"];
      const code = await runCli(
        [...argv, "HOSTILE_EXTRA_TOOL", "--", ...denoServer(server)],
        io,
      );
      assert.equal(code, 0, io.err.join(""));
      const out = io.out.join("");
      assert.match(out, /Approved MCP server evil/);
      assert.match(out, /red/, "the tool's name is shown, cleaned");
      assertClean(out, "radar mcp add");
    });
  },
}));
