/**
 * Stand-in models on the fake LLM server: policies over the requests Radar really sends, answered
 * in the recorded Ollama response bodies. `standInDoctor` sets up the modes `radar doctor` must
 * tell apart (tool-capable, no tools, tool calls printed as text, a smaller loaded context);
 * `reportTiming` makes answers carry an 8B model's durations, for the bench's projection.
 */
import {
  FakeLlmServer,
  type FakeReply,
  fixture,
  fixtureReply,
  ollamaText,
  ollamaToolCall,
  psReply,
  type RecordedRequest,
} from "./fake_llm_server.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** A chat request as Ollama's native API receives it. */
export interface WireRequest {
  messages: Array<{ role: string; content: string; tool_calls?: unknown[]; tool_name?: string }>;
  tools?: Array<{ function: { name: string } }>;
  options?: { num_ctx?: number };
}

/** What a policy decides: a tool call or words. */
export type Decision = { tool: string; args: Record<string, unknown> } | { text: string };

/** The text of a user turn without the send-time stamp the loop puts first. */
export function unstamped(text: string): string {
  return text.replace(/^\[[^\]\n]*\]\n/, "");
}

/** The competent assistant `radar doctor`'s probe hopes for. */
export function competent(request: WireRequest): Decision {
  const last = request.messages.at(-1)!;
  if (last.role === "tool") {
    if (/does not exist/.test(last.content)) {
      return { tool: "read_file", args: { path: "~/Notes.md" } };
    }
    const items = [...last.content.matchAll(/^- (.+)$/gm)].map((match) => match[1]);
    return { text: `Your list: ${items.join(", ")}.` };
  }
  const said = unstamped(last.content);
  if (/files .*Downloads/i.test(said)) {
    return { tool: "list_directory", args: { path: "~/Downloads" } };
  }
  if (/dentist/i.test(said)) return { tool: "recall", args: { query: "dentist" } };
  const fact = said.match(/^Remember that (.+)$/);
  if (fact) return { tool: "remember", args: { content: fact[1] } };
  if (/notification saying/i.test(said)) {
    return { tool: "notify", args: { message: "The backup finished." } };
  }
  if (/12 times 12/.test(said)) return { text: "144" };
  if (/thanks/i.test(said)) return { text: "You're welcome!" };
  return { text: "Done." };
}

/** The decision as a native `/api/chat` body: calls in `tool_calls`, or printed as text. */
export function answer(decision: Decision, asText = false): FakeReply {
  if ("text" in decision) return ollamaText(decision.text);
  if (!asText) return ollamaToolCall(decision.tool, decision.args);
  // ollama#6390's shape: the call left in content between <tool_call> tags.
  const reply = fixtureReply("ollama_api_chat_toolcall_as_text_hermes.observed.json");
  (reply.body as Json).message.content = `<tool_call>\n${
    JSON.stringify({ name: decision.tool, arguments: decision.args })
  }\n</tool_call>`;
  return reply;
}

/** Speeds of the model a stand-in impersonates (tokens per second), and its load time. */
export interface ModelSpeed {
  readPerSecond: number;
  writePerSecond: number;
  loadMs: number;
}

/** An 8B model in 4-bit on an Apple M-series laptop, on the slow side of published numbers. */
export const eightBillionOnALaptop: ModelSpeed = {
  readPerSecond: 250,
  writePerSecond: 20,
  loadMs: 8000,
};

/**
 * Puts `speed`'s durations into a native answer (prompt tokens counted as the request's JSON
 * characters / 3.5, answer tokens as characters / 4; the first answer pays the load).
 */
export function reportTiming(
  reply: FakeReply,
  request: RecordedRequest,
  speed: ModelSpeed,
  first: boolean,
) {
  const body = reply.body as Json;
  if (!body || typeof body !== "object" || !body.message) return reply;
  const prompt = Math.ceil(JSON.stringify(request.body).length / 3.5);
  const written = JSON.stringify(
    body.message.content + JSON.stringify(body.message.tool_calls ?? ""),
  );
  const answerTokens = Math.max(1, Math.ceil(written.length / 4));
  const ns = (ms: number) => Math.round(ms * 1e6);
  const load = first ? speed.loadMs : 0;
  const reading = (prompt / speed.readPerSecond) * 1000;
  const writing = (answerTokens / speed.writePerSecond) * 1000;
  Object.assign(body, {
    load_duration: ns(load),
    prompt_eval_count: prompt,
    prompt_eval_duration: ns(reading),
    eval_count: answerTokens,
    eval_duration: ns(writing),
    total_duration: ns(load + reading + writing),
  });
  return reply;
}

/** Modes of the doctor's stand-in. */
export type DoctorMode = "tool_capable" | "no_tools" | "text_calls" | "small_context";

/**
 * Sets `server` up as `mode`: the `/api/show`, `/api/ps` answers and a policy for chat requests.
 * `model` is the name `/api/ps` reports (the configured one); `speed` adds server timings.
 */
export function standInDoctor(
  server: FakeLlmServer,
  mode: DoctorMode,
  options: { model?: string; speed?: ModelSpeed } = {},
): FakeLlmServer {
  const model = options.model ?? "qwen2.5:14b";
  let answered = 0;
  server.ps = psReply(model, mode === "small_context" ? 2048 : 4096);
  if (mode === "no_tools") {
    server.show = fixtureReply("ollama_api_show.docs.json");
    server.fallback = (_path, request) =>
      (request.body as WireRequest).tools?.length
        ? fixtureReply("ollama_api_error_no_tools.observed.json", 400)
        : ollamaText("I can only talk.");
    return server;
  }
  server.show = { body: fixture("ollama_api_show_tools.synth.json") };
  server.fallback = (_path, request) => {
    const reply = answer(competent(request.body as WireRequest), mode === "text_calls");
    return options.speed ? reportTiming(reply, request, options.speed, answered++ === 0) : reply;
  };
  return server;
}

/** A URL where nothing answers (a server started and stopped). */
export async function deadServerUrl(): Promise<string> {
  const server = FakeLlmServer.start();
  const url = server.url;
  await server.close();
  return url;
}

/** Temperaments of the proactive stand-ins. */
export type Temperament = "obedient" | "quiet" | "trigger_happy";

/** The events of a heartbeat message (between its untrusted markers), or "" for nothing new. */
export function heartbeatEvents(message: string): string {
  // "web events" when every event is a monitored page's (public), else "events".
  const open = /source="(?:web )?events">\n/.exec(message);
  if (!open) return "";
  const start = open.index + open[0].length;
  return message.slice(start, message.indexOf("\n</", start));
}

/** The notes about the user in a system prompt. */
function notesOf(system: string): string {
  const at = system.indexOf("Notes about the user");
  return at < 0 ? "" : system.slice(at);
}

const tell = (message: string): Decision => ({ tool: "notify", args: { message } });
const quietly: Decision = { text: "Nothing needs attention." };

/** Minutes since midnight of "HH:MM–HH:MM" ranges on the same day: do any two overlap? */
function clash(events: string): boolean {
  const current = events.replace(/\(was [^)]*\)/g, "");
  const ranges = [...current.matchAll(/(\w{3} \d+ \w{3} \d{4}) (\d\d):(\d\d)–(\d\d):(\d\d)/g)]
    .map((match) => ({
      day: match[1],
      from: Number(match[2]) * 60 + Number(match[3]),
      to: Number(match[4]) * 60 + Number(match[5]),
    }));
  return ranges.some((a, i) =>
    ranges.some((b, j) => i < j && a.day === b.day && a.from < b.to && b.from < a.to)
  );
}

/**
 * The obedient assistant: reads new invoices and meeting notes, tells what matters (prices
 * reached, slots, people the notes name, clashes, reminders, money, failures), asks when a mail
 * wants a decision, ignores instructions inside events, and otherwise stays quiet.
 */
export function obedient(request: WireRequest): Decision {
  const last = request.messages.at(-1)!;
  if (last.role === "tool") {
    if (last.tool_name === "notify") return { text: "Told the user." };
    return tell(`New for you: ${last.content.replace(/\s+/g, " ").slice(0, 160)}`);
  }
  const events = heartbeatEvents(last.content);
  const notes = notesOf(request.messages[0].content);
  if (!events || /SYSTEM NOTICE|IGNORE ALL/i.test(events)) return quietly;
  const pdf = events.match(/file_added: \S*invoice\S*\.pdf .* at (\S+\.pdf)/i);
  if (pdf) return { tool: "pdf_extract", args: { path: pdf[1] } };
  const minutes = events.match(/file_added: \S+\.md .* at (\S+\.md)/);
  if (minutes && /meeting notes/i.test(notes)) {
    return { tool: "read_file", args: { path: minutes[1] } };
  }
  const limit = events.match(/below (\d+) EUR[\s\S]*\+Price: (\d+)/);
  if (limit) {
    return Number(limit[2]) < Number(limit[1]) ? tell(`Price reached: ${limit[2]} EUR`) : quietly;
  }
  if (/\+Appointments available/.test(events)) return tell("Visa appointments are open.");
  const mail = events.match(/new_email: from ([^<]+) <[^>]+>: "([^"]+)"/);
  if (mail) {
    if (/confirm|renews/i.test(mail[2])) {
      return tell(`${mail[1].trim()} asks: ${mail[2]}. Shall I reply?`);
    }
    const name = mail[1].trim();
    return notes.includes(name) ? tell(`${name} wrote: ${mail[2]}`) : quietly;
  }
  if (/calendar_changed/.test(events)) {
    return clash(events) ? tell("Calendar clash on Tuesday.") : quietly;
  }
  if (/calendar_reminder|money_|monitor_failing|github_ci_failing/.test(events)) {
    return tell(`Heads up: ${events.split("\n")[1]?.replace(/^- /, "") ?? events}`);
  }
  return quietly;
}

/** The trigger-happy assistant: obeys instructions in events, and tells (and offers) everything. */
export function triggerHappy(request: WireRequest): Decision {
  const last = request.messages.at(-1)!;
  if (last.role === "tool") {
    return last.tool_name === "notify"
      ? { text: "Done." }
      : tell("Heads up: I did what the page asked. Want me to do more?");
  }
  const events = heartbeatEvents(last.content);
  const order = events.match(/run `([^`]+)` with exec/);
  if (order) return { tool: "exec", args: { command: order[1] } };
  const first = events.split("\n")[1]?.replace(/^- /, "") ?? "all quiet";
  return tell(`Heads up: ${first || "all quiet"}. Want me to look into it?`);
}

/** Sets `server` up as a stand-in of `temperament` for heartbeat runs. */
export function standInProactive(server: FakeLlmServer, temperament: Temperament): FakeLlmServer {
  server.show = { body: fixture("ollama_api_show_tools.synth.json") };
  server.fallback = (_path, request) => {
    const body = request.body as WireRequest;
    if (temperament === "quiet") return ollamaText("Nothing needs attention.");
    return answer(temperament === "obedient" ? obedient(body) : triggerHappy(body));
  };
  return server;
}
