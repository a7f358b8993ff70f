import assert from "node:assert/strict";
import type { ToolContext } from "../../src/core/tool.ts";
import { join } from "node:path";
import { pluginFixture } from "./helpers.ts";

const context = { kind: "chat" as const, interactive: false, signal: new AbortController().signal };

function request(code: string, expected = "HELLO") {
  return {
    name: "shout",
    description: "Upper-case a text",
    parameters: { text: { type: "string" as const, description: "Text" } },
    code,
    tests: [{ name: "shouts", input_args: { text: "hello" }, expected_output: expected }],
  };
}

async function create(
  fixture: ReturnType<typeof pluginFixture>,
  args: unknown,
  runContext: ToolContext = context,
) {
  const tool = fixture.registry.get("create_tool");
  assert.ok(tool, "create_tool is registered when allow_llm_generated is on");
  const parsed = tool.parse(args);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
  const output = await tool.run(parsed.value, runContext);
  return typeof output === "string" ? { outcome: "ok", text: output } : output;
}

const good =
  "export function shout(args: { text: string }): string { return args.text.toUpperCase(); }";

Deno.test("create_tool is absent unless plugins.allow_llm_generated", async () => {
  const fixture = pluginFixture();
  try {
    assert.equal(fixture.registry.get("create_tool"), undefined);
  } finally {
    await fixture.close();
  }
});

Deno.test("create_tool files passing code for review and never enables it by itself", async () => {
  const fixture = pluginFixture({ allow_llm_generated: true });
  try {
    const result = await create(fixture, request(good));
    assert.equal(result.outcome, "ok", result.text);
    assert.match(result.text, /waits for the user's review/);
    const [details] = fixture.system.api.pendingReviews();
    assert.equal(details.trustLevel, "sandbox");
    assert.equal(details.author, "llm-generated");
    assert.deepEqual(details.review?.tests.map((test) => test.passed), [true]);
    assert.equal(fixture.registry.get("shout"), undefined);
  } finally {
    await fixture.close();
  }
});

Deno.test("create_tool keeps failed attempts in failed/ and stops after max_debug_attempts", async () => {
  const fixture = pluginFixture({ allow_llm_generated: true, max_debug_attempts: 2 });
  try {
    const wrong = await create(fixture, request(good, "nope"));
    assert.equal(wrong.outcome, "error");
    assert.match(wrong.text, /attempt 1 of 2 failed:\n- shouts: expected "nope", got ok: HELLO/);
    const errors = Deno.readTextFileSync(
      join(fixture.system.manager.dirs.failed, "shout", "errors.txt"),
    );
    assert.match(errors, /expected "nope"/);
    const hostile = await create(
      fixture,
      request("export function shout(): string { return Deno.readTextFileSync('/etc/passwd'); }"),
    );
    assert.match(hostile.text, /attempt 2 of 2 failed:.*Requires read access/s);
    const stopped = await create(fixture, request(good));
    assert.equal(stopped.outcome, "refused");
  } finally {
    await fixture.close();
  }
});

Deno.test("auto_approve_if_tests_pass enables a passing tool after the user's yes to its text", async () => {
  const fixture = pluginFixture({ allow_llm_generated: true, auto_approve_if_tests_pass: true });
  try {
    // Issue 23: its description joins later requests, so nobody's yes (radar ask, a task, a
    // heartbeat) means it waits for review.
    const unattended = await create(fixture, request(good));
    assert.match(unattended.text, /waits for the user's review/);
    assert.equal(fixture.registry.get("shout"), undefined);
    const questions: string[] = [];
    const result = await create(fixture, request(good), {
      ...context,
      interactive: true,
      confirm: (question) => {
        questions.push(question);
        return Promise.resolve(true);
      },
    });
    assert.match(questions[0], /"Upper-case a text"/);
    assert.match(result.text, /it is enabled/);
    const shout = fixture.registry.get("shout");
    assert.ok(shout);
    assert.equal(await shout.run({ text: "quiet" }, context), "QUIET");
    assert.equal(fixture.records.latestApproval("shout")?.approvedBy, "tests_passed");
  } finally {
    await fixture.close();
  }
});
