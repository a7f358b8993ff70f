/**
 * The daemon end to end: `radar serve` as a real subprocess against a fake LLM server and a fake
 * ntfy server. A PDF dropped into a watched folder reaches the model on a heartbeat and the
 * model's `notify` reaches ntfy; a SIGKILL mid-run loses nothing and notifies once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { flagsOfTask } from "../../scripts/task_flags.ts";
import { FakeLlmServer, ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { type FakeNtfyServer, startFakeNtfy } from "../fakes/fake_ntfy_server.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";
import { writeFolder } from "../../src/plugins/plugin_directories.ts";
import { echoPlugin } from "../plugins/helpers.ts";
import { fromFileUrl } from "../project/file_url.ts";
import { writeUserConfig } from "../helpers/radar_process.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const flags = flagsOfTask(JSON.parse(Deno.readTextFileSync(join(root, "deno.json"))).tasks.radar);

/** A `radar serve` subprocess with its stderr collected. */
interface ServeProcess {
  child: Deno.ChildProcess;
  stderr: () => string;
  done: Promise<void>;
}

function startServe(home: string): ServeProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, join(root, "main.ts"), "serve", "--port", "0"],
    cwd: home,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: home,
      RADAR_DATA_DIR: join(home, "data"),
      DENO_DIR: Deno.env.get("DENO_DIR") ??
        join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
    },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const done = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (text += chunk) }),
  ).catch(() => {});
  return { child, stderr: () => text, done };
}

/** Polls `probe` until it returns a value; fails with `what` (and the log) at the deadline. */
async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false,
  log: () => string = () => "",
  seconds = 30,
): Promise<T> {
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}\n${log().slice(-3000)}`);
}

/** Reads the daemon's database (WAL: a reader never blocks the daemon). */
function query<T>(home: string, sql: string, ...params: Array<string | number>): T[] {
  const db = new DatabaseSync(join(home, "data", "radar.db"), { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

interface RunRow {
  id: number;
  trigger: string;
  outcome: string;
  reason: string;
  pid: number;
  notifications: number;
}

interface EventRow {
  id: number;
  summary: string;
  consumed_at: string | null;
  consumed_by_run: number | null;
}

function runs(home: string): RunRow[] {
  return query<RunRow>(
    home,
    "SELECT id, trigger, outcome, reason, pid, notifications FROM heartbeat_runs ORDER BY id",
  );
}

function events(home: string): EventRow[] {
  return query<EventRow>(
    home,
    "SELECT id, summary, consumed_at, consumed_by_run FROM events ORDER BY id",
  );
}

/** Drops a PDF the way a browser does: a partial file first, renamed when complete. */
function dropPdf(folder: string, name: string, text: string): string {
  const partial = join(folder, `${name}.crdownload`);
  Deno.writeFileSync(partial, buildPdf([{ text }], { title: text }));
  const path = join(folder, name);
  Deno.renameSync(partial, path);
  return path;
}

/**
 * Sends SIGUSR2 (run a heartbeat now) until `arrived` holds. A signal that lands while the
 * start-up tick still runs is skipped by design, so it is repeated; extra heartbeats find
 * nothing pending and cost nothing.
 */
async function triggerHeartbeat(
  serve: ServeProcess,
  arrived: () => boolean,
  what: string,
): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    serve.child.kill("SIGUSR2");
    try {
      await waitFor(what, () => arrived(), serve.stderr, 3);
      return;
    } catch { /* not yet: signal again */ }
  }
  throw new Error(`timed out waiting for ${what}\n${serve.stderr().slice(-3000)}`);
}

async function stopServe(serve: ServeProcess, signal: Deno.Signal): Promise<Deno.CommandStatus> {
  try {
    serve.child.kill(signal);
  } catch { /* already gone */ }
  const status = await serve.child.status;
  await serve.done;
  return status;
}

function userMessages(llm: FakeLlmServer): string[] {
  // deno-lint-ignore no-explicit-any
  return llm.chatRequests.map((request: any) =>
    request.body.messages.filter((message: { role: string }) => message.role === "user").at(-1)
      ?.content ?? ""
  );
}

function writeConfig(home: string, llm: FakeLlmServer, ntfy: FakeNtfyServer, inbox: string) {
  writeUserConfig(
    home,
    `radar:
  timezone: "UTC"
llm:
  provider: "ollama"
  base_url: "${llm.url}"
  retries: 0
heartbeat:
  interval_minutes: 15
  quiet_hours: null
notifications:
  ntfy:
    url: "${ntfy.url}"
    topic: "radar-e2e"
watchers:
  - path: "${inbox}"
    pattern: "*.pdf"
    action: "new_pdf_detected"
`,
  );
}

Deno.test({
  name: "radar serve: a dropped PDF reaches the model and ntfy; SIGKILL mid-run loses nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const home = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-e2e-" }));
    const inbox = join(home, "inbox");
    Deno.mkdirSync(inbox);
    const llm = FakeLlmServer.start();
    const ntfy = startFakeNtfy();
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    writeConfig(home, llm, ntfy, inbox);
    let serve = startServe(home);
    try {
      // 1. Start: the start-up tick records an idle heartbeat, with no model call.
      await waitFor(
        "radar serve to be ready",
        () => /Radar is running at/.test(serve.stderr()),
        serve.stderr,
      );
      await waitFor(
        "the start-up tick",
        () => runs(home).find((run) => run.trigger === "schedule"),
        serve.stderr,
      );
      assert.equal(runs(home)[0].outcome, "skipped");
      assert.equal(llm.chatRequests.length, 0, "an idle tick makes no model call");

      // The plugin folder watcher runs too: a dropped plugin folder waits for review.
      writeFolder(join(home, "data", "plugins", "dropped"), echoPlugin("dropped"));
      await waitFor(
        "the plugin folder change",
        () =>
          /plugin folders changed changes=\["dropped: waiting for review"\]/.test(serve.stderr()),
        serve.stderr,
      );

      // 2. A PDF arrives; the watcher queues one event for the finished file only.
      const invoice = dropPdf(inbox, "invoice-2026-11.pdf", "ACME Invoice total 1234 EUR");
      await waitFor("the file event", () => events(home).length === 1, serve.stderr);
      assert.match(events(home)[0].summary, /^invoice-2026-11\.pdf \(\d+ B\) at /);

      // 3. A heartbeat: the model reads the PDF, then notifies.
      llm.reply(
        ollamaToolCall("pdf_extract", { path: invoice }),
        ollamaToolCall("notify", { title: "Invoice", message: "ACME invoice: 1234 EUR" }),
        ollamaText("I sent you a notification about the ACME invoice."),
      );
      await triggerHeartbeat(serve, () => ntfy.requests.length === 1, "the notification");
      const [first] = userMessages(llm);
      assert.match(first, /^It is .*UTC\. Since the last check:/);
      assert.match(first, /new_pdf_detected: invoice-2026-11\.pdf/);
      // deno-lint-ignore no-explicit-any
      const offered = (llm.chatRequests[0].body as any).tools.map((tool: any) =>
        tool.function.name
      );
      assert.ok(offered.includes("notify"), `notify is offered on a heartbeat: ${offered}`);
      // deno-lint-ignore no-explicit-any
      const toolResult = (llm.chatRequests[1].body as any).messages.at(-1);
      assert.equal(toolResult.role, "tool");
      assert.match(toolResult.content, /ACME Invoice total 1234 EUR/);
      assert.equal(ntfy.requests[0].path, "/radar-e2e");
      assert.equal(ntfy.requests[0].body, "ACME invoice: 1234 EUR");
      assert.equal(ntfy.requests[0].headers.title, "Invoice");
      const ran = await waitFor(
        "the committed run",
        () => runs(home).find((run) => run.outcome === "ran"),
        serve.stderr,
      );
      assert.equal(ran.notifications, 1);
      assert.equal(events(home)[0].consumed_by_run, ran.id);

      // 4. A second PDF; the model is slow; the daemon is killed while it waits.
      dropPdf(inbox, "contract.pdf", "Lease contract renewal");
      await waitFor("the second file event", () => events(home).length === 2, serve.stderr);
      const before = llm.chatRequests.length;
      llm.reply({ ...ollamaToolCall("notify", { message: "never sent" }), hold: held });
      await triggerHeartbeat(
        serve,
        () => llm.chatRequests.length > before,
        "the held model request",
      );
      const running = await waitFor(
        "the running heartbeat row",
        () => runs(home).find((run) => run.outcome === "running"),
        serve.stderr,
      );
      assert.equal(running.pid, serve.child.pid);
      const killed = await stopServe(serve, "SIGKILL");
      assert.equal(killed.signal, "SIGKILL");
      assert.equal(events(home)[1].consumed_at, null, "the event is still queued after the crash");

      // 5. Restart: the stale lock is taken over, the interrupted run closed, the event re-delivered.
      serve = startServe(home);
      await waitFor(
        "the restarted daemon",
        () => /Radar is running at/.test(serve.stderr()),
        serve.stderr,
      );
      const interrupted = runs(home).find((run) => run.id === running.id)!;
      assert.equal(interrupted.outcome, "failed");
      assert.match(interrupted.reason, /interrupted/);
      llm.reply(
        ollamaToolCall("notify", { message: "Lease contract renewal arrived" }),
        ollamaText("Told you about the contract."),
      );
      await triggerHeartbeat(
        serve,
        () => ntfy.requests.length === 2,
        "the re-delivered notification",
      );
      const redelivered = userMessages(llm).at(-2)!;
      assert.match(redelivered, /new_pdf_detected: contract\.pdf/);
      assert.doesNotMatch(redelivered, /invoice-2026-11\.pdf/, "consumed events are not re-sent");
      const done = await waitFor(
        "the re-delivery run",
        () => runs(home).find((run) => run.outcome === "ran" && run.id > running.id),
        serve.stderr,
      );
      assert.equal(events(home)[1].consumed_by_run, done.id);

      // 6. Another heartbeat finds nothing: no model call, no second notification.
      const calls = llm.chatRequests.length;
      const lastRun = runs(home).at(-1)!.id;
      serve.child.kill("SIGUSR2");
      const idle = await waitFor(
        "an idle manual heartbeat",
        () => runs(home).find((run) => run.id > lastRun && run.outcome !== "running"),
        serve.stderr,
      );
      assert.equal(idle.outcome, "skipped");
      assert.equal(idle.reason, "nothing pending");
      assert.equal(llm.chatRequests.length, calls);
      assert.deepEqual(ntfy.requests.map((request) => request.body), [
        "ACME invoice: 1234 EUR",
        "Lease contract renewal arrived",
      ]);

      assert.doesNotMatch(serve.stderr(), /Debugger listening/, "no inspector was opened");
      const stopped = await stopServe(serve, "SIGTERM");
      assert.equal(stopped.code, 0, serve.stderr());
    } finally {
      await stopServe(serve, "SIGKILL");
      release();
      await llm.close();
      await ntfy.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
});

/** A model that notifies once per file event listed in the heartbeat, then answers. */
function notifyingModel(llm: FakeLlmServer, delay: () => number): void {
  llm.fallback = () => {
    // deno-lint-ignore no-explicit-any
    const messages = (llm.chatRequests.at(-1)!.body as any).messages as Array<
      { role: string; content: string }
    >;
    const hold = new Promise((resolve) => setTimeout(resolve, delay()));
    if (messages.at(-1)?.role === "tool") return { ...ollamaText("Done."), hold };
    const names = [...messages.at(-1)!.content.matchAll(/new_pdf_detected: (\S+\.pdf)/g)]
      .map((match) => match[1]);
    if (!names.length) return { ...ollamaText("Nothing to report."), hold };
    const reply = ollamaToolCall("notify", {});
    // deno-lint-ignore no-explicit-any
    (reply.body as any).message.tool_calls = names.map((name, index) => ({
      id: `call_${index}`,
      function: { index, name: "notify", arguments: { message: `New file: ${name}` } },
    }));
    return { ...reply, hold };
  };
}

Deno.test({
  name:
    "radar serve killed with SIGKILL at random points loses no notification and repeats none it recorded",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const home = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-kill-" }));
    const inbox = join(home, "inbox");
    Deno.mkdirSync(inbox);
    const llm = FakeLlmServer.start();
    const ntfy = startFakeNtfy();
    let holdFinal = true;
    notifyingModel(llm, () => Math.random() * 400);
    const fallback = llm.fallback!;
    writeConfig(home, llm, ntfy, inbox);
    const files: string[] = [];
    const random = (max: number) => Math.floor(Math.random() * max);
    let serve = startServe(home);
    try {
      await waitFor("ready", () => /Radar is running at/.test(serve.stderr()), serve.stderr);
      // Round 1, deterministic: killed after ntfy got the notification, before the run commits.
      dropPdf(inbox, "file-0.pdf", "zero");
      files.push("file-0.pdf");
      let releaseFinal = () => {};
      llm.fallback = (path, request) => {
        const reply = fallback(path, request);
        if (!holdFinal || !/Done/.test(JSON.stringify(reply.body))) return reply;
        return { ...reply, hold: new Promise<void>((resolve) => releaseFinal = resolve) };
      };
      await waitFor("the file event", () => events(home).length === 1, serve.stderr);
      await triggerHeartbeat(serve, () => ntfy.requests.length === 1, "the first notification");
      await stopServe(serve, "SIGKILL");
      holdFinal = false;
      releaseFinal();
      // Rounds 2..7: a file arrives (sometimes while the daemon is down), a kill lands anywhere.
      for (let round = 1; round <= 6; round++) {
        const name = `file-${round}.pdf`;
        const whileDown = round % 2 === 0;
        if (whileDown) {
          dropPdf(inbox, name, `file ${round}`);
          files.push(name);
        }
        serve = startServe(home);
        await waitFor("ready", () => /Radar is running at/.test(serve.stderr()), serve.stderr);
        if (!whileDown) {
          dropPdf(inbox, name, `file ${round}`);
          files.push(name);
        }
        await new Promise((resolve) => setTimeout(resolve, 2_500)); // settled and queued
        // Kill somewhere in the heartbeat: after the model was first asked, at a random moment.
        const asked = llm.chatRequests.length;
        serve.child.kill("SIGUSR2");
        await waitFor("the model request", () => llm.chatRequests.length > asked, serve.stderr, 5)
          .catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, random(900)));
        await stopServe(serve, "SIGKILL");
      }
      // Finally a clean run works off whatever is still queued.
      serve = startServe(home);
      await waitFor("ready", () => /Radar is running at/.test(serve.stderr()), serve.stderr);
      await triggerHeartbeat(
        serve,
        () => events(home).length === files.length && events(home).every((e) => e.consumed_at),
        "every event consumed",
      );
      const sent = ntfy.requests.map((request) => request.body).sort();
      console.log(
        `kill test: ${files.length} events, ${sent.length} notifications, ` +
          `${runs(home).filter((run) => /interrupted/.test(run.reason)).length} interrupted runs`,
      );
      // Nothing lost: every file's notification arrived. A second copy only where a kill landed
      // between ntfy's answer and the outbox record (the entry was claimed twice).
      const expected = files.map((name) => `New file: ${name}`).sort();
      assert.deepEqual([...new Set(sent)], expected);
      const resent = query<{ body: string }>(
        home,
        "SELECT body FROM outbox WHERE kind = 'notify' AND attempts > 1",
      ).map((row) => row.body);
      for (const body of new Set(sent)) {
        const copies = sent.filter((one) => one === body).length;
        assert.ok(copies === 1 || (copies === 2 && resent.includes(body)), `${body} × ${copies}`);
      }
      assert.equal((await stopServe(serve, "SIGTERM")).code, 0, serve.stderr());
    } finally {
      await stopServe(serve, "SIGKILL");
      holdFinal = false;
      await llm.close();
      await ntfy.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
});
