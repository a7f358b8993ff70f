/**
 * Hooks and Agent Skills end to end: `radar ask` as a real subprocess against the fake LLM server
 * with config rules in radar.yaml — what the model is sent (filter_tools, <available_skills>),
 * what it can call (block rules answer with a refusal the model sees), what it may store
 * (block_memory_pattern) and what the user reads (redact_response).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { runRadar, writeUserConfig } from "../helpers/radar_process.ts";

type Body = {
  tools: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string; tool_name?: string }>;
};

const config = `llm:
  retries: 0
hooks:
  rules:
    - name: no_weather
      type: denylist
      tools: [weather]
    - name: no_rm
      type: block_command_pattern
      patterns: ["rm -rf"]
      message: "rm -rf is not allowed here"
    - name: no_cards
      type: block_memory_pattern
      patterns: ["card number"]
    - name: keys
      type: redact_response
      patterns: ["sk-[a-z0-9]{8,}"]
    - name: no_passwords
      type: block_message_pattern
      patterns: ["password:"]
      message: "Please do not send passwords to Radar."
`;

function home(): string {
  const folder = Deno.makeTempDirSync({ prefix: "radar-hooks-" });
  writeUserConfig(folder, config);
  return folder;
}

Deno.test("radar ask with hook rules and skills: the model's view, its refused calls, the redacted answer", async () => {
  const folder = home();
  const server = FakeLlmServer.start().reply(
    ollamaToolCall("exec", { command: "rm -rf ~/old" }),
    ollamaToolCall("remember", {
      content: "My card number is 4111 1111",
      category: "learned_fact",
    }),
    ollamaToolCall("use_skill", { name: "weekly-review" }),
    ollamaText("Done. Your key is sk-abcdef123456."),
  );
  try {
    const run = await runRadar(
      folder,
      ["ask", "Run a shell command to clean up old files, check the weather, remember my card"],
      { env: { RADAR_LLM_BASE_URL: server.url } },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "Done. Your key is [redacted].\n");
    const bodies = server.chatRequests.map((request) => request.body as Body);
    assert.equal(bodies.length, 4);
    const offered = bodies[0].tools.map((tool) => tool.function.name);
    assert.ok(offered.includes("exec") && offered.includes("use_skill"), offered.join(","));
    assert.ok(!offered.includes("weather"), "denylist removed weather from what the model is sent");
    const system = bodies[0].messages[0].content;
    assert.match(
      system,
      /<available_skills>\n- comic-filing: .*\n- inbox-triage: .*\n- morning-briefing: /,
    );
    assert.ok(!system.includes("1. Call"), "no skill bodies in the system prompt");
    const toolResult = (body: Body, name: string) =>
      body.messages.findLast((message) => message.role === "tool" && message.tool_name === name)
        ?.content ?? "";
    assert.match(toolResult(bodies[1], "exec"), /rm -rf is not allowed here/);
    assert.match(toolResult(bodies[2], "remember"), /Not stored: this memory matches a hook rule/);
    assert.match(toolResult(bodies[3], "use_skill"), /# Weekly review[\s\S]*list_tasks/);
    const facts = await runRadar(folder, ["memory", "search", "card"]);
    assert.doesNotMatch(facts.stdout, /4111/);
    const list = await runRadar(folder, ["hooks", "list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^filter_tools +50 +config +no_weather: denylist; tools weather/m);
    assert.match(list.stdout, /^pre_tool_call +50 +config +no_rm: .*\(fail-closed\)/m);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar ask keeps the rules and skills on every run; a blocked message never reaches the model", async () => {
  const folder = home();
  const server = FakeLlmServer.start().reply(
    ollamaText("Hello."),
    ollamaText("It is sunny. Key: sk-abcdef123456"),
  );
  try {
    const env = { RADAR_LLM_BASE_URL: server.url };
    const first = await runRadar(folder, ["ask", "hello"], { env });
    assert.equal(first.code, 0, first.stderr);
    const second = await runRadar(folder, ["ask", "what is the weather today?"], { env });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, "It is sunny. Key: [redacted]\n");
    const [one, two] = server.chatRequests.map((request) => request.body as Body);
    assert.equal(two.messages[0].content, one.messages[0].content, "the same system prompt");
    assert.match(two.messages[0].content, /<available_skills>/);
    assert.ok(!two.tools.some((tool) => tool.function.name === "weather"));
    const blocked = await runRadar(folder, ["ask", "my password: hunter2"], { env });
    assert.equal(blocked.code, 0, blocked.stderr);
    assert.equal(blocked.stdout, "Please do not send passwords to Radar.\n");
    assert.equal(server.chatRequests.length, 2, "no model call for the blocked message");
    // The message is not stored, nor kept as the title ask gave its conversation.
    const history = await runRadar(folder, ["history"]);
    assert.match(history.stdout, / 0 msgs +\(blocked message\)/);
    assert.doesNotMatch(history.stdout, /password|hunter2/);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("radar skill list and show: bundled and user skills, a bad one as one warning line", async () => {
  const folder = home();
  try {
    const mine = join(folder, "data", "skills", "tea-time");
    Deno.mkdirSync(mine, { recursive: true });
    Deno.writeTextFileSync(
      join(mine, "SKILL.md"),
      "---\nname: tea-time\ndescription: Brew tea.\n---\n1. Boil water.\n",
    );
    const broken = join(folder, "data", "skills", "broken");
    Deno.mkdirSync(broken);
    Deno.writeTextFileSync(join(broken, "SKILL.md"), "---\nname: other\ndescription: x\n---\n");
    const list = await runRadar(folder, ["skill", "list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^tea-time +data +usable/m);
    assert.match(list.stdout, /^pdf-filing +bundled +usable/m);
    assert.match(list.stdout, /6 of 6 usable skill\(s\) listed in the system prompt/);
    const warnings = list.stderr.trim().split("\n");
    assert.equal(warnings.length, 1, list.stderr);
    assert.match(warnings[0], /broken\/SKILL\.md: name "other" must match its folder "broken"$/);
    const show = await runRadar(folder, ["skill", "show", "tea-time"]);
    assert.match(show.stdout, /1\. Boil water\./);
    const missing = await runRadar(folder, ["skill", "show", "nope"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr.trim().split("\n").at(-1)!, /^radar: No skill named "nope"/);
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("a skill gated on a variable appears once it is set, from the startup cache too", async () => {
  const folder = home();
  const skill = join(folder, "data", "skills", "kettle");
  Deno.mkdirSync(skill, { recursive: true });
  Deno.writeTextFileSync(
    join(skill, "SKILL.md"),
    "---\nname: kettle\ndescription: Boil the kettle.\nrequires:\n  env: [KETTLE_TOKEN]\n---\n1. Boil.\n",
  );
  const server = FakeLlmServer.start().reply(ollamaText("one"), ollamaText("two"));
  try {
    const env = { RADAR_LLM_BASE_URL: server.url };
    assert.equal((await runRadar(folder, ["ask", "hi"], { env })).code, 0);
    const second = await runRadar(folder, ["ask", "hi"], { env: { ...env, KETTLE_TOKEN: "t" } });
    assert.equal(second.code, 0, second.stderr);
    const [without, withToken] = server.chatRequests.map((request) =>
      (request.body as Body).messages[0].content
    );
    assert.doesNotMatch(without, /- kettle: /);
    assert.match(withToken, /- kettle: Boil the kettle\./);
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
});
