/**
 * A plugin's filter_tools hook hides tools and its post_agent_run hook redacts answers; when
 * either crashes or answers nonsense Radar fails closed: the run offers none of the tools the
 * filter was asked about (it goes on tool-less), and the answer is withheld — one line naming the
 * hook is shown and stored instead, never the unredacted text. One warning line per failure says
 * what was done. Real plugin host, real runtime, real HTTP to the fake model server.
 */
import assert from "node:assert/strict";
import { withheldAnswer } from "../../src/core/hooks.ts";
import type { Radar } from "../../src/runtime/open_radar.ts";
import { type FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { chatTurn, withFakeLlmRadar } from "../helpers/fake_llm_home.ts";

const privateText = "the account number is DE89 3704 0044 0532 0130 00";

const guard = (filterBody: string, redactBody: string) => ({
  "manifest.yaml": `name: guard
version: 1.0.0
description: Hides exec and redacts account numbers
trust_level: sandbox
capabilities: [hook]
hooks:
  - hook_point: filter_tools
    function: hide_exec
  - hook_point: post_agent_run
    function: redact
`,
  "tool.ts": `
export function hide_exec(input: { tools: string[] }) {
  ${filterBody}
}
export function redact(input: { response: string }) {
  ${redactBody}
}
`,
});

const working = {
  filter: `return { tools: input.tools.filter((name) => name !== "exec") };`,
  redact: `return { response: input.response.replace(/DE\\d\\d[\\d ]+/, "[account]") };`,
};

async function withGuard(
  bodies: { filter: string; redact: string },
  work: (radar: Radar, server: FakeLlmServer, logged: string[]) => Promise<void>,
) {
  await withFakeLlmRadar(
    {
      prefix: "radar-answer-filter-",
      logLevel: "warn",
      plugins: { guard: guard(bodies.filter, bodies.redact) },
    },
    (radar, home) => work(radar, home.server, home.logged),
  );
}

async function ask(radar: Radar, server: FakeLlmServer) {
  server.reply(ollamaText(`Sure: ${privateText}.`));
  const { id, result } = await chatTurn(
    radar,
    "what is my account number? run a command if needed",
  );
  const body = server.chatRequests.at(-1)!.body as {
    tools?: Array<{ function: { name: string } }>;
  };
  const offered = (body.tools ?? []).map((tool) => tool.function.name);
  const stored = radar.conversations.recentMessages(id, 10).map((message) => message.content);
  return { result, offered, stored };
}

Deno.test("working plugin filters hide exec and redact the answer (the baseline)", async () => {
  await withGuard(working, async (radar, server) => {
    const { result, offered } = await ask(radar, server);
    assert.ok(offered.length > 3, offered.join());
    assert.ok(!offered.includes("exec"));
    assert.equal(result.answer, "Sure: the account number is [account].");
  });
});

Deno.test("a crashing tool filter offers no tools; a crashing redactor withholds the answer", async () => {
  await withGuard(
    {
      filter: `throw new Error("filter crashed");`,
      redact: `throw new Error("redactor crashed");`,
    },
    async (radar, server, logged) => {
      const { result, offered, stored } = await ask(radar, server);
      assert.deepEqual(offered, [], "none of the tools the filter was asked about");
      assert.deepEqual(result.offeredTools, []);
      assert.equal(result.answer, withheldAnswer("guard.redact"));
      assert.equal(
        result.answer,
        'The answer was withheld because the redacting hook "guard.redact" failed.',
      );
      assert.ok(!stored.some((text) => text.includes("DE89")), "the store never saw it either");
      assert.ok(stored.includes(result.answer));

      const toolLine = logged.filter((line) =>
        /tool\(s\) it was asked about are offered/.test(line)
      );
      assert.equal(toolLine.length, 1, `one warning line for the filter:\n${logged.join("\n")}`);
      assert.match(
        toolLine[0],
        /tool filter guard\.hide_exec did not answer; none of the \d+ tool/,
      );
      const answerLine = logged.filter((line) => /the answer was withheld/.test(line));
      assert.equal(answerLine.length, 1, logged.join("\n"));
      assert.match(answerLine[0], /redacting hook guard\.redact did not answer/);
      assert.ok(logged.some((line) => /plugin:guard:redact error: .*redactor crashed/.test(line)));
    },
  );
});

Deno.test("nonsense answers from the filter and the redactor fail closed too", async () => {
  await withGuard(
    { filter: `return { tools: "all" };`, redact: `return { response: 42 };` },
    async (radar, server, logged) => {
      const { result, offered } = await ask(radar, server);
      assert.deepEqual(offered, []);
      assert.equal(result.answer, withheldAnswer("guard.redact"));
      assert.ok(
        logged.some((line) =>
          /guard\.hide_exec returned something other than \{tools: \[names\]\}; none of/.test(line)
        ),
        logged.join("\n"),
      );
      assert.ok(
        logged.some((line) =>
          /guard\.redact returned something other than \{response\}; the answer was withheld/
            .test(line)
        ),
        logged.join("\n"),
      );
    },
  );
});

Deno.test("hooks that answer nothing keep the tools and the answer as they are", async () => {
  await withGuard({ filter: `return;`, redact: `return;` }, async (radar, server) => {
    const { result, offered } = await ask(radar, server);
    assert.ok(offered.includes("exec"), offered.join());
    assert.equal(result.answer, `Sure: ${privateText}.`);
  });
});
