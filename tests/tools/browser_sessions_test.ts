/**
 * When browsers end, with a stand-in browser (no Chromium): an unattended run's browser closes
 * when the run ends, however it ends; a chat's stays for the next message and closes after the
 * idle time or the session time; at most two run at once; Radar's close ends them all. And the
 * registry offers the browser only to messages about it.
 */
import assert from "node:assert/strict";
import { runAgent } from "../../src/core/agent_loop.ts";
import {
  type BrowserSession,
  emptySessionNotes,
  type PageView,
  type SessionLimits,
  type WebBrowser,
} from "../../src/core/browser.ts";
import { ToolRegistry } from "../../src/core/tool_registry.ts";
import { ManualClock } from "../../src/adapters/clock.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteConversationStore } from "../../src/adapters/sqlite/conversation_store.ts";
import { browserTool } from "../../src/tools/browser.ts";
import { BrowserSessions } from "../../src/tools/browser_sessions.ts";
import { ManualTimers } from "../fakes/manual_timers.ts";
import { ScriptedChatModel, textResponse, toolCallResponse } from "../fakes/scripted_chat_model.ts";
import { call } from "./tool_harness.ts";

const blank: PageView = {
  url: "https://example.org/",
  title: "Example",
  text: "Example Domain",
  textCut: 0,
  controls: [],
  loading: false,
};

/** A browser whose sessions only count opens and closes. */
class StandInBrowser implements WebBrowser {
  started = 0;
  closed = 0;
  availability() {
    return { executable: "/stand-in", name: "Stand-in", source: "config" as const };
  }
  start(_limits: SessionLimits): Promise<BrowserSession> {
    this.started++;
    let closed = false;
    const notes = emptySessionNotes();
    const countClose = () => this.closed++;
    return Promise.resolve({
      open: () => Promise.resolve(blank),
      view: () => Promise.resolve(blank),
      url: () => blank.url,
      mayReach: () => true,
      inspect: () => Promise.reject(new Error("unused")),
      fill: () => Promise.reject(new Error("unused")),
      click: () => Promise.reject(new Error("unused")),
      release: () => Promise.resolve({ held: [], sent: [], view: blank }),
      drop: () => Promise.resolve(),
      screenshot: () => Promise.resolve(new Uint8Array([1, 2, 3])),
      takeNotes: () => notes,
      close() {
        if (!closed) countClose();
        closed = true;
        return Promise.resolve();
      },
      get closed() {
        return closed;
      },
    });
  }
}

function parts(settings: { idleMs?: number; sessionMs?: number } = {}) {
  const browser = new StandInBrowser();
  const timers = new ManualTimers();
  const clock = new ManualClock(new Date("2026-11-23T09:00:00Z"));
  const sessions = new BrowserSessions(
    browser,
    () => ({
      limits: { callMs: 5000, maxChars: 1000 },
      sessionMs: settings.sessionMs ?? 600_000,
      idleMs: settings.idleMs ?? 300_000,
      maxSessions: 2,
    }),
    clock,
    timers,
  );
  const tool = browserTool({
    sessions,
    check: () => Promise.resolve({ addresses: ["93.184.216.34"] }),
    callMs: () => 5000,
  });
  return { browser, timers, clock, sessions, tool };
}

Deno.test("an unattended run's browser closes when the run ends", async () => {
  const { browser, sessions, tool } = parts();
  const registry = new ToolRegistry();
  registry.register(tool);
  const db = openDatabase(":memory:");
  const store = new SqliteConversationStore(db);
  const clock = new ManualClock(new Date("2026-11-22T10:00:00Z"));
  const model = new ScriptedChatModel([
    toolCallResponse("browser", { action: "open", url: "https://example.org/" }),
    toolCallResponse("browser", { action: "read" }),
    (request) => {
      // Mid-run: the browser is still open for the next call.
      assert.equal(sessions.open, 1);
      assert.match(JSON.stringify(request.messages.at(-1)), /Example Domain/);
      return textResponse("It says Example Domain.");
    },
  ]);
  const conversationId = store.createConversation("heartbeat", "t", clock.now());
  const result = await runAgent({
    model,
    registry,
    store,
    clock,
    elapsed: () => 0,
    systemPrompt: () => "You are Radar.",
    settings: {
      maxToolIterations: 5,
      temperature: 0,
      toolBudgetTokens: 1000,
      historyMessages: 10,
      maxResultChars: 4000,
    },
  }, {
    conversationId,
    kind: "heartbeat",
    userMessage: "Check the form on https://example.org/ in the browser",
    interactive: false,
  });
  assert.equal(result.answer, "It says Example Domain.");
  assert.equal(browser.started, 1, "one browser for the whole run");
  assert.equal(browser.closed, 1, "closed when the run ended");
  assert.equal(sessions.open, 0);
  db.close();
});

Deno.test("a chat keeps its browser between messages until the idle time, and no longer than the session time", async () => {
  const { browser, timers, sessions, tool } = parts({ idleMs: 300_000, sessionMs: 600_000 });
  const chat = {
    kind: "chat" as const,
    conversationId: 1,
    interactive: true,
    signal: new AbortController().signal,
    atRunEnd: () => {},
  };
  await call(tool, { action: "open", url: "https://example.org/" }, chat);
  await call(tool, { action: "read" }, chat);
  assert.equal(browser.started, 1);
  assert.equal(sessions.open, 1);
  const delays = [...timers.pending.values()].map((timer) => timer.milliseconds).sort();
  assert.deepEqual(
    delays,
    [300_000, 600_000],
    "one idle timer (re-armed per call), one session timer",
  );
  timers.fireAll();
  await Promise.resolve();
  assert.equal(sessions.open, 0);
  assert.equal(browser.closed, 1);
  const gone = await call(tool, { action: "read" }, chat);
  assert.equal(gone.outcome, "error");
  assert.match(gone.text, /No page is open in this conversation/);
});

Deno.test("at most two browsers at once, and Radar's close ends them all", async () => {
  const { browser, sessions, tool } = parts();
  const chatIn = (conversationId: number) => ({
    kind: "chat" as const,
    conversationId,
    interactive: true,
    signal: new AbortController().signal,
    atRunEnd: () => {},
  });
  await call(tool, { action: "open", url: "https://example.org/" }, chatIn(1));
  await call(tool, { action: "open", url: "https://example.org/" }, chatIn(2));
  const third = await call(tool, { action: "open", url: "https://example.org/" }, chatIn(3));
  assert.equal(third.outcome, "error");
  assert.match(third.text, /2 browser sessions are open already/);
  await sessions.closeAll();
  assert.equal(browser.closed, 2);
  assert.equal(sessions.open, 0);
});

Deno.test("the browser is offered only to messages about it (or after it was used)", () => {
  const { tool } = parts();
  const registry = new ToolRegistry();
  registry.register(tool);
  const offered = (message: string, recentTools: string[] = []) =>
    registry.select(message, 1130, { recentTools }).map((each) => each.name);
  assert.deepEqual(offered("hello"), []);
  assert.deepEqual(offered("What's the weather tomorrow?"), []);
  assert.deepEqual(offered("Fill in the signup form on https://example.org"), ["browser"]);
  assert.deepEqual(offered("click the download button"), ["browser"]);
  assert.deepEqual(offered("and now the next one", ["browser"]), ["browser"]);
});
