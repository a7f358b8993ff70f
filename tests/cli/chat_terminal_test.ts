/**
 * `radar chat` on a real pseudo-terminal (python3's pty module) against the fake LLM server:
 * /help answered locally, multi-line input between """ lines, Ctrl-C cancels the running answer
 * and returns to the prompt, a second Ctrl-C at an empty prompt or Ctrl-D exits with 0, and the
 * line history is kept owner-only in the data folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { type PtyStep, radarInPty } from "../helpers/pty.ts";
import { needing } from "../helpers/system_parts.ts";

function chatInPty(home: string, server: FakeLlmServer, steps: PtyStep[]) {
  return radarInPty(home, ["chat"], steps, { env: { RADAR_LLM_BASE_URL: server.url } });
}

type ChatBody = { messages: Array<{ role: string; content: string }> };
const lastUserMessage = (server: FakeLlmServer, index: number) =>
  (server.chatRequests[index].body as ChatBody).messages.filter((m) => m.role === "user").at(-1)
    ?.content;

Deno.test(needing(["python3"], {
  name: "radar chat in a terminal: /help, multi-line, Ctrl-C cancels an answer, Ctrl-C twice exits",
}, async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-chat-pty-" });
  const server = FakeLlmServer.start();
  const slow = Promise.withResolvers<void>();
  server.reply(
    ollamaText("Two lines read."),
    { ...ollamaText("too late"), hold: slow.promise },
    ollamaText("Back again."),
  );
  try {
    const run = await chatInPty(home, server, [
      ["expect", "> "],
      ["send", "/help\r"],
      ["expect", "multi-line"],
      ["expect", "> "],
      ["send", '"""\r'],
      ["expect", "… "],
      ["send", 'line one\rline two\r"""\r'],
      ["expect", "Two lines read."],
      ["expect", "> "],
      ["send", "slow question\r"],
      ["expect", "thinking"],
      ["send", "\x03"],
      ["expect", "(cancelled)"],
      ["expect", "> "],
      ["send", "again\r"],
      ["expect", "Back again."],
      ["expect", "> "],
      ["send", "\x03"],
      ["expect", "Ctrl-C again"],
      ["send", "\x03"],
    ]);
    slow.resolve();
    assert.equal(run.code, 0, run.text);
    assert.equal(server.chatRequests.length, 3, "/help and the cancelled Ctrl-C sent nothing more");
    assert.match(lastUserMessage(server, 0) ?? "", /(^|\n)line one\nline two$/);
    assert.match(lastUserMessage(server, 2) ?? "", /(^|\n)again$/);
    const history = join(home, "data", "chat_history");
    assert.equal(Deno.statSync(history).mode! & 0o777, 0o600);
    assert.match(Deno.readTextFileSync(history), /slow question\nagain\n$/);
  } finally {
    slow.resolve();
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
}));

Deno.test(needing(
  ["python3"],
  { name: "radar chat in a terminal: Ctrl-D at the prompt exits with 0" },
  async () => {
    const home = Deno.makeTempDirSync({ prefix: "radar-chat-pty-" });
    const server = FakeLlmServer.start();
    try {
      const run = await chatInPty(home, server, [["expect", "> "], ["send", "\x04"]]);
      assert.equal(run.code, 0, run.text);
      assert.equal(server.chatRequests.length, 0);
    } finally {
      await server.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
));
