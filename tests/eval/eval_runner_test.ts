import assert from "node:assert/strict";
import { formatSummary, formatTaskLine, summarize } from "../../src/eval/eval_report.ts";
import { runEvalCommand } from "../../src/eval/eval_command.ts";
import { runEval, type TaskOutcome } from "../../src/eval/eval_runner.ts";
import { evalTasks, mentionsDate } from "../../src/eval/eval_tasks.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { needing, onLinux } from "../helpers/system_parts.ts";

const pick = (...ids: string[]) => ids.map((id) => evalTasks.find((task) => task.id === id)!);

function today(): string {
  const now = new Date();
  const two = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

Deno.test("radar eval runs tasks in scratch homes, checks their effects and scores the model", async () => {
  const server = FakeLlmServer.start().reply(
    ollamaToolCall("list_directory", { path: "~/Downloads", pattern: "*.pdf" }),
    ollamaText("invoice-0423.pdf and comic-12.pdf"),
    ollamaText('{"name": "notify", "arguments": {"message": "hello"}}'), // leaked as text
    ollamaText("Sent."),
    ollamaToolCall("write_file", { path: "test.txt", content: `${today()}\n` }),
    ollamaText("Created test.txt."),
    ollamaToolCall("schedule_task", { message: "Summarize my week", when: "every Monday at 9am" }),
    ollamaText("Scheduled."),
    ollamaText("Paris"),
    ollamaText("I don't know your dentist."), // never called recall
    ollamaToolCall("write_file", { path: "todo.md", content: "- call mom\n" }), // lost a line
    ollamaText("Done."),
  );
  const seen: TaskOutcome[] = [];
  try {
    const report = await runEval({
      env: { RADAR_LLM_BASE_URL: server.url, RADAR_LLM_MODEL: "qwen3:8b" },
      tasks: pick(
        "list-pdfs",
        "notify-hello",
        "file-with-date",
        "schedule-weekly",
        "no-tool-needed",
        "recall-dentist",
        "jot-todo",
      ),
      onTask: (outcome) => seen.push(outcome),
    });
    assert.deepEqual(
      report.outcomes.map((outcome) => [outcome.id, outcome.pass]),
      [
        ["list-pdfs", true],
        ["notify-hello", true],
        ["file-with-date", true],
        ["schedule-weekly", true],
        ["no-tool-needed", true],
        ["recall-dentist", false],
        ["jot-todo", false],
      ],
      report.outcomes.map(formatTaskLine).join("\n"),
    );
    assert.equal(seen.length, 7);
    const byId = Object.fromEntries(report.outcomes.map((outcome) => [outcome.id, outcome]));
    assert.equal(byId["recall-dentist"].reason, "the answer does not mention /okafor/i");
    assert.equal(byId["recall-dentist"].toolsRight, false);
    assert.equal(byId["jot-todo"].reason, "~/todo.md lost its earlier line");
    assert.equal(byId["jot-todo"].toolsRight, true);
    assert.equal(byId["notify-hello"].leakedResponses, 1);
    const totals = summarize(report);
    assert.equal(totals.passed, 5);
    assert.equal(totals.toolsRight, 6);
    assert.equal(totals.leakedResponses, 1);
    assert.equal(totals.toolResponses, 5);
    assert.ok(totals.tokens > 0);
    assert.equal(report.model, "qwen3:8b");
    const summary = formatSummary(report);
    assert.match(summary, /^model qwen3:8b at http:\/\/127\.0\.0\.1:\d+$/m);
    assert.match(summary, /passed 5\/7 \(71 %\) · tool calls right 6\/7 \(86 %\)/);
    assert.match(summary, /tool calls leaked as text 1\/5 \(20 %\)/);
    assert.match(
      formatTaskLine(byId["list-pdfs"]),
      /^PASS {2}list-pdfs\s+list_directory\s+\d+ tok/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("radar eval stops with the model error when the server is unreachable", async () => {
  const server = FakeLlmServer.start();
  const url = server.url;
  await server.close();
  const folder = Deno.makeTempDirSync({ prefix: "radar-eval-config-" });
  const configPath = `${folder}/radar.yaml`;
  Deno.writeTextFileSync(configPath, "llm:\n  retries: 0\n");
  try {
    await assert.rejects(
      runEval({ env: { RADAR_LLM_BASE_URL: url }, configPath, tasks: pick("no-tool-needed") }),
      (error: Error) => error.name === "LlmError",
    );
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test("mentionsDate() accepts the common ways to write a date", () => {
  const date = new Date(2026, 10, 23);
  for (
    const text of ["2026-11-23", "23/11/2026", "11/23/2026", "November 23, 2026", "23rd Nov 2026"]
  ) {
    assert.ok(mentionsDate(text, date), text);
  }
  assert.ok(!mentionsDate("2026-11-24", date));
});

// The suite's exec task runs its command in the sandbox.
Deno.test(needing([onLinux, "bubblewrap"], {
  name: "the rest of the suite passes with a model that does the right thing",
}, async () => {
  const pdfText: string[] = [];
  const server = FakeLlmServer.start().reply(
    ollamaToolCall("pdf_extract", { path: "~/Downloads/invoice-0423.pdf" }),
  );
  try {
    server.reply(
      ollamaText("It is invoice 0423 from ACME Corp."),
      ollamaToolCall("read_file", { path: "~/Documents/meeting-notes.md" }),
      ollamaText("The launch moves to Thursday; Priya owns the release notes."),
      ollamaToolCall("exec", { command: "wc -l ~/data.csv" }),
      ollamaText("It has 42 lines."),
      ollamaToolCall("remember", { content: "The user's favourite colour is teal" }),
      ollamaText("Noted."),
    );
    const report = await runEval({
      env: { RADAR_LLM_BASE_URL: server.url },
      tasks: pick("read-pdf", "summarize-notes", "count-lines", "remember-colour"),
    });
    const pdfRequest = server.chatRequests[1].body as { messages: Array<{ content: string }> };
    pdfText.push(pdfRequest.messages.at(-1)!.content);
    assert.match(pdfText[0], /INVOICE 0423 from ACME Corp/, "the hand-written PDF reads back");
    assert.deepEqual(
      report.outcomes.filter((outcome) => !outcome.pass).map(formatTaskLine),
      [],
    );
  } finally {
    await server.close();
  }
}));

Deno.test("runEvalCommand() prints a line per task and the totals; exit 1 when a task failed", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("Lyon"));
  const lines: string[] = [];
  try {
    const code = await runEvalCommand({
      env: { RADAR_LLM_BASE_URL: server.url },
      model: "llama3.2:3b",
      only: "no-tool",
      write: (line) => lines.push(line),
    });
    assert.equal(code, 1);
    assert.equal(lines[0], "radar eval: 1 tasks, each in a scratch home");
    assert.match(lines[1], /^FAIL {2}no-tool-needed .*the answer does not mention \/paris\/i$/);
    assert.match(lines[2], /^model llama3\.2:3b at /);
    assert.equal((server.chatRequests[0].body as { model: string }).model, "llama3.2:3b");
  } finally {
    await server.close();
  }
});
