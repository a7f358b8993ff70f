/**
 * The specification's four Phase 1 validation prompts through `radar ask` as a person runs it:
 * a real subprocess in a pseudo-terminal, Radar's embedded defaults (no config file), the fake
 * LLM server answering as a common local model does (ntfy's own priority words, a bare file
 * name) and reading the tool results it is sent. Then the same file prompt from a script.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import type { RecordedRequest } from "../fakes/fake_llm_server.ts";
import { startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";
import { radarInPty } from "../helpers/pty.ts";
import { needing } from "../helpers/system_parts.ts";
import { runRadar } from "../helpers/radar_process.ts";

type ChatBody = { messages: Array<{ role: string; content: string }> };

/** The text of the last tool result the model was sent, without its untrusted-data markers. */
function lastToolResult(request: RecordedRequest): string {
  const message = (request.body as ChatBody).messages.findLast((entry) => entry.role === "tool");
  assert.ok(message, "the model was sent a tool result");
  return message.content.split("\n").slice(1, -1).join("\n");
}

/** Today's date as the model reads it from the first line of the user message ("[Sunday, …]"). */
function dateOfUserMessage(request: RecordedRequest): string {
  const first = (request.body as ChatBody).messages.findLast((entry) => entry.role === "user")!
    .content.split("\n")[0];
  const date = new Date(`${first.replace(/^\[\w+, /, "").split(",")[0]} UTC`);
  return date.toISOString().slice(0, 10);
}

/** A model that answers with the first line of the tool result it got. */
const relayResult = (request: RecordedRequest) =>
  ollamaText(`Done: ${lastToolResult(request).split("\n")[0]}`);

Deno.test(needing(["python3"], {
  name:
    "Phase 1 in a terminal: the four validation prompts pass through `radar ask` out of the box",
}, async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-phase1-pty-" });
  const project = join(home, "project");
  Deno.mkdirSync(join(home, "Downloads"), { recursive: true });
  Deno.mkdirSync(project);
  for (const name of ["invoice.pdf", "Paper.PDF", "notes.txt"]) {
    Deno.writeTextFileSync(join(home, "Downloads", name), "x");
  }
  const scan = join(home, "Downloads", "scan.pdf");
  Deno.writeFileSync(
    scan,
    buildPdf([{ text: "INVOICE 2026-117 ACME Hosting" }, { text: "Terms" }]),
  );
  const server = FakeLlmServer.start();
  const ntfy = startFakeNtfy();
  const env = {
    RADAR_LLM_BASE_URL: server.url,
    RADAR_NTFY_URL: ntfy.url,
    RADAR_NTFY_TOPIC: "phase1",
  };
  const ask = (question: string, steps: Array<["expect" | "send", string]> = []) =>
    radarInPty(home, ["ask", question], steps, { env, cwd: project });
  try {
    server.reply(
      ollamaToolCall("list_directory", { path: "~/Downloads", pattern: "*.pdf" }),
      (request) => {
        const names = lastToolResult(request).split("\n").slice(1).map((line) =>
          line.split(" ").at(-1)
        );
        return ollamaText(`PDFs: ${names.join(", ")}.`);
      },
    );
    let run = await ask("List the PDFs in my Downloads folder");
    assert.equal(run.code, 0, run.text);
    assert.match(run.text, /PDFs: invoice\.pdf, Paper\.PDF, scan\.pdf\./);

    server.reply(ollamaToolCall("pdf_extract", { path: scan, first: 1, last: 0 }), (request) => {
      const page = lastToolResult(request).split("--- page 1 ---\n")[1].split("\n")[0];
      return ollamaText(`It is an invoice: ${page}.`);
    });
    run = await ask(`Read the first page of ${scan} and tell me what it is`);
    assert.equal(run.code, 0, run.text);
    assert.match(run.text, /It is an invoice: INVOICE 2026-117 ACME Hosting\./);

    // ntfy's own vocabulary: "default" priority and tags.
    server.reply(
      ollamaToolCall("notify", { message: "hello", priority: "default", tags: ["wave"] }),
      relayResult,
    );
    run = await ask("Send me a notification saying hello");
    assert.equal(run.code, 0, run.text);
    assert.match(run.text, /Done: Notification sent to ntfy topic phase1\./);
    assert.equal(ntfy.requests.length, 1);
    assert.equal(ntfy.requests[0].body, "hello");
    assert.equal(ntfy.requests[0].headers.priority, "default");
    assert.equal(ntfy.requests[0].headers.tags, "wave");

    // A bare file name: the folder Radar was run from, after a y at the terminal.
    server.reply(
      (request) =>
        ollamaToolCall("write_file", {
          path: "test.txt",
          content: `${dateOfUserMessage(request)}\n`,
        }),
      relayResult,
    );
    run = await ask("Create a file called test.txt with today's date in it", [
      ["expect", "Radar wants to write ~/project/test.txt"],
      ["expect", "[y/N] "],
      ["send", "y\r"],
    ]);
    assert.equal(run.code, 0, run.text);
    assert.match(run.text, /Done: Created ~\/project\/test\.txt \(11 bytes\)\./);
    assert.match(Deno.readTextFileSync(join(project, "test.txt")), /^\d{4}-\d{2}-\d{2}\n$/);
  } finally {
    await server.close();
    await ntfy.close();
    Deno.removeSync(home, { recursive: true });
  }
}));

Deno.test("Phase 1 from a script: nobody can say yes, so the bare file name goes to scratch and the answer says so", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-phase1-script-" });
  const server = FakeLlmServer.start();
  try {
    server.reply(
      ollamaToolCall("write_file", { path: "test.txt", content: "2026-11-22\n" }),
      relayResult,
    );
    const run = await runRadar(home, [
      "ask",
      "Create a file called test.txt with today's date in it",
    ], { env: { RADAR_LLM_BASE_URL: server.url } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      "Done: Created ~/.local/state/radar/scratch/test.txt (11 bytes). It is in the scratch " +
        "folder: nobody is there to allow writing in ~. Undo: radar undo 1.\n",
    );
    assert.equal(
      Deno.readTextFileSync(join(home, ".local/state/radar/scratch/test.txt")),
      "2026-11-22\n",
    );
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});
