/**
 * The product spec's four Phase 1 validation prompts, end to end through the real runtime
 * (config, SQLite, registry, built-in tools, audit trail) with a scripted model that issues the
 * tool calls a real model would, and answers from the tool results it is sent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../../src/adapters/clock.ts";
import { runAgent } from "../../src/core/agent_loop.ts";
import type { ChatRequest } from "../../src/core/chat_model.ts";
import { openRadar, type Radar } from "../../src/runtime/open_radar.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { type ScriptStep, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { ScriptedChatModel } from "../fakes/scripted_chat_model.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";
import { tempHome } from "../tools/tool_harness.ts";

/** The text of the last tool result the model was sent, inside its untrusted-data markers. */
function lastToolResult(request: ChatRequest): string {
  const message = request.messages.findLast((entry) => entry.role === "tool");
  assert.ok(message, "the model was sent a tool result");
  const lines = message.content.split("\n");
  assert.match(lines[0], /^<untrusted id="[0-9a-f]{12}" source="tool /);
  assert.match(lines.at(-1)!, /^<\/untrusted id="[0-9a-f]{12}">$/);
  return lines.slice(1, -1).join("\n");
}

async function ask(runtime: Radar, message: string, steps: ScriptStep[]) {
  const model = new ScriptedChatModel(steps);
  const conversationId = runtime.conversations.createConversation(
    "ask",
    message,
    runtime.clock.now(),
  );
  const result = await runAgent({ ...await runtime.agent(), model }, {
    conversationId,
    kind: "ask",
    userMessage: message,
    interactive: false,
  });
  return { result, model };
}

async function openTestRuntime(
  home: string,
  env: Record<string, string> = {},
): Promise<Radar> {
  return await openRadar({
    env: { HOME: home, RADAR_DATA_DIR: join(home, "data"), PATH: Deno.env.get("PATH"), ...env },
    cwd: home,
    clock: new ManualClock(new Date("2026-11-22T09:15:00Z")),
    logLevel: "error",
  });
}

Deno.test("Phase 1: “List the PDFs in my Downloads folder” lists exactly the PDFs", async () => {
  const home = tempHome();
  const runtime = await openTestRuntime(home.home);
  try {
    const downloads = join(home.home, "Downloads");
    Deno.mkdirSync(join(downloads, "old"), { recursive: true });
    for (const name of ["invoice.pdf", "Paper.PDF", "notes.txt", "old/archived.pdf"]) {
      Deno.writeTextFileSync(join(downloads, name), "x");
    }
    const { result, model } = await ask(runtime, "List the PDFs in my Downloads folder", [
      toolCallResponse("list_directory", { path: "~/Downloads", pattern: "*.pdf" }),
      (request) => {
        const names = lastToolResult(request).split("\n").slice(1).map((line) =>
          line.split(" ").at(-1)
        );
        return textResponse(`You have ${names.length} PDFs: ${names.join(", ")}.`);
      },
    ]);
    assert.ok(model.requests[0].tools.some((tool) => tool.name === "list_directory"), "offered");
    const listing = result.toolExecutions[0].result.text;
    const listed = listing.split("\n").slice(1).map((line) => line.split(" ").at(-1));
    assert.deepEqual(listed, ["invoice.pdf", "Paper.PDF"]);
    assert.equal(result.answer, "You have 2 PDFs: invoice.pdf, Paper.PDF.");
    const audit = runtime.toolCalls.list({ limit: 5 });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].tool, "list_directory");
    assert.equal(audit[0].outcome, "ok");
  } finally {
    runtime.close();
    home.dispose();
  }
});

Deno.test("Phase 1: “Read the first page of a PDF and tell me what it is”", async () => {
  const home = tempHome();
  const runtime = await openTestRuntime(home.home);
  try {
    const path = join(home.home, "Downloads", "scan-0042.pdf");
    Deno.mkdirSync(join(home.home, "Downloads"));
    Deno.writeFileSync(
      path,
      buildPdf([{ text: "INVOICE 2026-117 ACME Hosting, total EUR 42.00" }, { text: "Terms" }], {
        title: "Invoice",
      }),
    );
    const { result } = await ask(runtime, `Read the first page of ${path} and tell me what it is`, [
      toolCallResponse("pdf_extract", { path, first: 1, last: 0 }),
      (request) => {
        const page = lastToolResult(request).split("--- page 1 ---\n")[1].split("\n")[0];
        return textResponse(`It is an invoice: “${page}”.`);
      },
    ]);
    assert.match(result.toolExecutions[0].result.text, /^~\/Downloads\/scan-0042\.pdf: 2 pages/);
    assert.equal(
      result.answer,
      "It is an invoice: “INVOICE 2026-117 ACME Hosting, total EUR 42.00”.",
    );
  } finally {
    runtime.close();
    home.dispose();
  }
});

Deno.test("Phase 1: “Send me a notification saying hello” reaches ntfy", async () => {
  const home = tempHome();
  const ntfy = startFakeNtfy();
  const runtime = await openTestRuntime(home.home, {
    RADAR_NTFY_URL: ntfy.url,
    RADAR_NTFY_TOPIC: "radar-test",
    RADAR_NTFY_TOKEN: "tk_phase1_secret",
  });
  try {
    const { result } = await ask(runtime, "Send me a notification saying hello", [
      toolCallResponse("notify", { title: "Radar", message: "hello" }),
      textResponse("Sent."),
    ]);
    assert.equal(result.toolExecutions[0].result.outcome, "ok");
    assert.equal(ntfy.requests.length, 1);
    const [request] = ntfy.requests;
    assert.equal(request.method, "POST");
    assert.equal(request.path, "/radar-test");
    assert.equal(request.headers.title, "Radar");
    assert.equal(request.headers.authorization, "Bearer tk_phase1_secret");
    assert.equal(request.body, "hello");
    const [row] = runtime.toolCalls.list({ limit: 1 });
    assert.doesNotMatch(JSON.stringify(row), /tk_phase1_secret/);
  } finally {
    runtime.close();
    await ntfy.close();
    home.dispose();
  }
});

Deno.test("Phase 1: “Create a file called test.txt with today's date in it”", async () => {
  const home = tempHome();
  // Unattended (`radar ask`), write_file writes only the scratch folder and the listed roots.
  const config = join(home.home, "radar-test.yaml");
  Deno.writeTextFileSync(config, 'tools:\n  files:\n    writable_roots: ["~"]\n');
  const runtime = await openTestRuntime(home.home, { RADAR_CONFIG: config });
  try {
    const { result } = await ask(runtime, "Create a file called test.txt with today's date in it", [
      (request) => {
        // A real model reads today's date from the first line of the user message ("[Sunday, …]").
        const line = request.messages.at(-1)!.content.split("\n")[0];
        const date = new Date(`${line.replace(/^\[\w+, /, "").split(",")[0]} UTC`);
        return toolCallResponse("write_file", {
          path: "test.txt",
          content: `${date.toISOString().slice(0, 10)}\n`,
        });
      },
      textResponse("Created test.txt."),
    ]);
    assert.equal(
      result.toolExecutions[0].result.text,
      "Created ~/test.txt (11 bytes). Undo: radar undo 1.",
    );
    assert.equal(Deno.readTextFileSync(join(home.home, "test.txt")), "2026-11-22\n");
  } finally {
    runtime.close();
    home.dispose();
  }
});
