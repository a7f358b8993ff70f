/**
 * A password Radar reads after start (password_cmd, run when the mail tool first connects) joins
 * the redaction set at once: later log lines, audit rows and `radar log tools` show "********".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { runCli } from "../../src/cli/program.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import { logPath, RotatingLogFile } from "../../src/daemon/log_file.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";
import { mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { needing } from "../helpers/system_parts.ts";

const password = "Pw-from-cmd-5519";

Deno.test(needing(["dovecot"], {
  name:
    "a password read later by password_cmd is masked in the log file, tool_calls and radar log tools",
  async fn() {
    const server = await startDovecot({ alice: password });
    const home = Deno.makeTempDirSync({ prefix: "radar-secrets-" });
    const env = { HOME: home, RADAR_DATA_DIR: join(home, "data") };
    const configPath = join(home, "radar.yaml");
    Deno.writeTextFileSync(
      configPath,
      `email:\n  accounts:\n    - name: home\n      host: 127.0.0.1\n      port: ${server.port}\n` +
        `      tls: none\n      user: alice\n      password_cmd: "echo ${password}"\n`,
    );
    await server.deliver(
      "alice",
      password,
      mailMessage({ from: "bob@example.test", subject: "Hi" }),
    );
    const model = new ScriptedChatModel([
      toolCallResponse("list_email", {}),
      toolCallResponse("remember", { content: `The mail password is ${password}` }),
      textResponse("Done."),
    ]);
    const logFile = new RotatingLogFile(logPath(env.RADAR_DATA_DIR));
    const runtime = await openRadar({
      configPath,
      env,
      cwd: home,
      model,
      logLevel: "info",
      logWriters: [(line) => logFile.write(line)],
    });
    try {
      const conversationId = runtime.conversations.createConversation("chat", "t", new Date());
      await runAgent(await runtime.agent(), {
        conversationId,
        kind: "chat",
        userMessage: "check my mail and remember the password",
        interactive: false,
      });
      const listed = model.requests[1].messages.find((message) => message.role === "tool");
      assert.match(
        listed?.content ?? "",
        /bob@example\.test · Hi/,
        "password_cmd ran: mail listed",
      );
      // A later log line quoting the password (an IMAP server echoing it back, say).
      runtime.logger.warn("IMAP error", { detail: `LOGIN alice ${password} failed` });
      logFile.close();
      const logged = Deno.readTextFileSync(logPath(env.RADAR_DATA_DIR));
      assert.match(logged, /IMAP error detail="LOGIN alice \*\*\*\*\*\*\*\* failed"/);
      assert.ok(!logged.includes(password), logged);

      const db = openDatabase(runtime.databasePath);
      const rows = db.prepare("SELECT tool, arguments, result FROM tool_calls ORDER BY id")
        .all() as Array<{ tool: string; arguments: string; result: string }>;
      db.close();
      const remembered = rows.find((row) => row.tool === "remember");
      assert.ok(remembered, JSON.stringify(rows));
      assert.match(remembered.arguments, /The mail password is \*\*\*\*\*\*\*\*/);
      assert.ok(!JSON.stringify(rows).includes(password), JSON.stringify(rows));

      const io = memoryIo(env, { cwd: home });
      assert.equal(await runCli(["--config", configPath, "log", "tools"], io), 0, io.err.join(""));
      const shown = io.out.join("");
      assert.match(shown, /remember/);
      assert.ok(!shown.includes(password), shown);
    } finally {
      runtime.close();
      await server.stop();
      Deno.removeSync(home, { recursive: true });
    }
  },
}));
