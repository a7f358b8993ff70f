/**
 * `radar doctor` against the stand-in model server in each mode a user meets: tool-capable, a
 * model without tools, tool calls printed as text, a server that loaded a smaller context than
 * Radar asks for, no server at all; and a config with a typo or an error. Real HTTP, real CLI.
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/cli/program.ts";
import { type FakeLlmHome, withFakeLlmHome } from "../helpers/fake_llm_home.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { psReply } from "../fakes/fake_llm_server.ts";
import { deadServerUrl, type DoctorMode, standInDoctor } from "../fakes/standin_models.ts";

const yaml = "llm:\n  retries: 0\nplugins:\n  enabled: false\n";

interface DoctorRecord {
  canWork: boolean;
  blocking: string[];
  verdicts: Array<{ check: string; level: string; summary: string; fix?: string }>;
  probe: { passed: number; ran: number; leaked: number } | null;
  suggestions: Array<{ key: string; value: string }>;
}

async function doctor(
  home: FakeLlmHome,
  args: string[] = ["--json"],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; record?: DoctorRecord }> {
  const io = memoryIo({ ...home.env, ...env }, { cwd: home.folder });
  const code = await runCli(["doctor", ...args], io);
  const out = io.out.join("");
  return { code, out, record: args.includes("--json") ? JSON.parse(out) : undefined };
}

function levelOf(record: DoctorRecord, check: string): string[] {
  return record.verdicts.filter((item) => item.check === check).map((item) => item.level);
}

function inMode(mode: DoctorMode, work: (home: FakeLlmHome) => Promise<void>) {
  return withFakeLlmHome({ prefix: `radar-doctor-${mode}-`, yaml }, async (home) => {
    standInDoctor(home.server, mode);
    await work(home);
  });
}

Deno.test("doctor on a tool-capable model: every probe right, the loaded context matches, exit 0", async () => {
  await inMode("tool_capable", async (home) => {
    const { code, record } = await doctor(home);
    assert.equal(code, 0, JSON.stringify(record?.blocking));
    assert.equal(record!.canWork, true);
    assert.deepEqual(record!.blocking, []);
    for (const check of ["config", "data", "database", "server", "model", "tools", "judgment"]) {
      assert.deepEqual(levelOf(record!, check), ["ok"], check);
    }
    assert.deepEqual(levelOf(record!, "context"), ["ok"]);
    assert.match(
      record!.verdicts.find((item) => item.check === "context")!.summary,
      /loaded 4096 tokens \(\/api\/ps\) for num_ctx 4096/,
    );
    assert.deepEqual([record!.probe!.passed, record!.probe!.ran, record!.probe!.leaked], [8, 8, 0]);
    assert.ok(record!.suggestions.some((item) => item.key === "llm.max_context_tokens"));
    // Each probe went out with Radar's own system prompt and tools, in the native wire format.
    const sent = home.server.chatRequests.map((request) => request.body as { tools: unknown[] });
    assert.equal(sent.length, 8);
    assert.ok(sent.every((body) => body.tools.length >= 5));
  });
});

Deno.test("doctor on a model without tool calling: blocked, naming it, no probe sent", async () => {
  await inMode("no_tools", async (home) => {
    const { code, record } = await doctor(home);
    assert.equal(code, 1);
    assert.equal(record!.canWork, false);
    assert.deepEqual(record!.blocking, ["tools: qwen2.5:14b does not support tool calling"]);
    assert.equal(home.server.chatRequests.length, 0);
    assert.ok(record!.suggestions.some((item) => item.key === "llm.model"));
  });
});

Deno.test("doctor when the server hides tools and refuses them on the first probe: blocked", async () => {
  await inMode("no_tools", async (home) => {
    home.server.show = { body: { details: { format: "gguf" }, model_info: {} } };
    const { code, record } = await doctor(home);
    assert.equal(code, 1);
    assert.deepEqual(levelOf(record!, "tools"), ["skip", "fail"]);
    assert.match(
      record!.blocking.join("\n"),
      /^tools: Model qwen2\.5:14b does not support tool calling/,
    );
    assert.equal(home.server.chatRequests.length, 1, "no further probe after the refusal");
  });
});

Deno.test("doctor on tool calls printed as text: Radar can work, with a warning and a fix", async () => {
  await inMode("text_calls", async (home) => {
    const { code, record, out } = await doctor(home, ["--json"]);
    assert.equal(code, 0, out);
    assert.deepEqual(levelOf(record!, "tool calls"), ["warn"]);
    const line = record!.verdicts.find((item) => item.check === "tool calls")!;
    assert.match(line.summary, /^5 of 5 tool calls came back printed as text/);
    assert.match(line.fix!, /template/);
    assert.equal(record!.probe!.leaked, 5);
  });
});

Deno.test("doctor on a server that loaded less context than num_ctx: blocked, with the fix", async () => {
  await inMode("small_context", async (home) => {
    const { code, record } = await doctor(home);
    assert.equal(code, 1);
    const context = record!.verdicts.filter((item) => item.check === "context");
    assert.equal(context[0].level, "fail");
    assert.match(context[0].summary, /loaded 2048 tokens of context, less than the num_ctx 4096/);
    assert.match(
      context[0].fix!,
      /OLLAMA_CONTEXT_LENGTH=4096.*first request \(~\d+ tokens\) does not fit 2048/,
    );
    assert.equal(context.length, 1);
    assert.match(record!.blocking.join("\n"), /^context: the server loaded 2048/);
    // Held at 3072, a first request still fits: fitting Radar to it is the fix.
    home.server.ps = psReply("qwen2.5:14b", 3072);
    const again = await doctor(home);
    assert.equal(again.code, 1);
    const held = again.record!.verdicts.find((item) => item.check === "context")!;
    assert.match(
      held.fix!,
      /^set llm\.max_context_tokens: 3072 \(Radar then fits every request to it\)/,
    );
  });
});

Deno.test("doctor with no model server: blocked on the server, nothing else asked of it", async () => {
  await inMode("tool_capable", async (home) => {
    const url = await deadServerUrl();
    const { code, out } = await doctor(home, [], { RADAR_LLM_BASE_URL: url });
    assert.equal(code, 1);
    assert.match(out, new RegExp(`fail {2}server {5}no model server answers at ${url}`));
    assert.match(out, /fix: start Ollama \(`ollama serve`\)/);
    assert.match(out, /\nRadar cannot work yet: server \(\d+\.\d s\)\n$/);
    assert.doesNotMatch(out, /judgment/);
  });
});

Deno.test("doctor names the key a typo meant, and stops at a config that does not load", async () => {
  await inMode("tool_capable", async (home) => {
    Deno.writeTextFileSync(home.env.RADAR_CONFIG, `${yaml}budget:\n  tokens_per_day: 9000\n`);
    let run = await doctor(home, []);
    assert.equal(run.code, 0, run.out);
    assert.match(
      run.out,
      /warn {2}config {5}unknown key budget\.tokens_per_day: Radar ignores it\n +fix: did you mean budget\.daily_tokens\? rename it\n/,
    );
    Deno.writeTextFileSync(home.env.RADAR_CONFIG, "llm:\n  temperature: hot\n");
    run = await doctor(home, ["--json"]);
    assert.equal(run.code, 2);
    assert.equal(run.record!.verdicts.length, 1);
    assert.match(run.record!.blocking[0], /^config: Invalid config .*llm\.temperature/);
  });
});
