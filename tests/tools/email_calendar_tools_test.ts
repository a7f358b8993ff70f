import assert from "node:assert/strict";
import { configSchema } from "../../src/config/schema.ts";
import { type Tool, type ToolContext, toResult } from "../../src/core/tool.ts";
import { calendarReaderFor, mailReaderFor } from "../../src/sources/source_readers.ts";
import { calendarTool } from "../../src/tools/calendar.ts";
import { emailTools } from "../../src/tools/email.ts";
import { mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { needing } from "../helpers/system_parts.ts";
import { Secrets } from "../../src/core/secrets.ts";

const chat: ToolContext = {
  kind: "chat",
  interactive: false,
  signal: new AbortController().signal,
};

async function call(tool: Tool, args: unknown, context: ToolContext = chat) {
  const parsed = tool.parse(args);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return toResult(await tool.run(parsed.value, context));
}

Deno.test(needing(["dovecot"], {
  name: "email tools against a real Dovecot: list, read (text only), mark read, unknown account",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startDovecot({ alice: "pw-for-tools" });
    try {
      await server.deliver(
        "alice",
        "pw-for-tools",
        mailMessage({
          from: "Bob <bob@example.test>",
          subject: "Plans",
          html: "<p>Meet at <b>noon</b>?</p><script>steal()</script>",
        }),
      );
      const config = configSchema.parse({
        email: {
          accounts: [{
            name: "home",
            host: "127.0.0.1",
            port: server.port,
            tls: "none",
            user: "alice",
            password_cmd: "printf '%s\\n' pw-for-tools",
          }],
        },
      });
      const mail = mailReaderFor(config, {}, new Secrets());
      assert.ok(mail);
      const [list, read, mark] = emailTools({ mail, timeZone: "UTC" });
      const listed = await call(list, {});
      assert.equal(listed.outcome, "ok");
      assert.match(
        listed.text,
        /^home uid 1 · 2026-11-23 10:00 UTC · Bob <bob@example\.test> · Plans \[unread\]$/,
      );
      const body = await call(read, { account: "home", uid: 1 });
      assert.match(body.text, /\n\nMeet at noon\?$/);
      assert.equal(
        (await call(mark, { account: "home", uid: 1 })).text,
        "Marked home uid 1 as read.",
      );
      assert.equal((await call(list, { unread_only: true })).text, "No messages.");
      const unknown = await call(list, { account: "work" });
      assert.deepEqual([unknown.outcome, unknown.text], [
        "error",
        'No email account "work" (have: home)',
      ]);
    } finally {
      await server.stop();
    }
  },
}));

Deno.test("email tools are offered only when an account is configured", () => {
  assert.equal(mailReaderFor(configSchema.parse({}), {}, new Secrets()), undefined);
  assert.equal(calendarReaderFor(configSchema.parse({}), {}, fetch, new Secrets()), undefined);
});

Deno.test("password_cmd failures are one line (no shell, exit code, missing program)", async () => {
  const config = configSchema.parse({
    email: {
      accounts: [{
        name: "home",
        host: "127.0.0.1",
        port: 1,
        tls: "none",
        user: "a",
        password_cmd: "false; echo hacked",
      }],
    },
  });
  const [list] = emailTools({ mail: mailReaderFor(config, {}, new Secrets())! });
  assert.equal(
    (await call(list, {})).text,
    "email account home: password_cmd false; failed: program not found",
    "no shell: `false;` is the program",
  );
  const failing = configSchema.parse({
    email: { accounts: [{ ...config.email.accounts[0], password_cmd: "false" }] },
  });
  const [list3] = emailTools({ mail: mailReaderFor(failing, {}, new Secrets())! });
  assert.equal(
    (await call(list3, {})).text,
    "email account home: password_cmd false exited with 1",
  );
  const missing = configSchema.parse({
    email: {
      accounts: [{ ...config.email.accounts[0], password_cmd: "/nonexistent/pass show x" }],
    },
  });
  const [list2] = emailTools({ mail: mailReaderFor(missing, {}, new Secrets())! });
  assert.equal(
    (await call(list2, {})).text,
    "email account home: password_cmd /nonexistent/pass failed: program not found",
  );
});

const fixturePath = new URL("../fixtures/calendar/weekly_berlin.ics", import.meta.url).pathname;

function icsCalendarTool(now: string) {
  const config = configSchema.parse({
    radar: { timezone: "Europe/Berlin" },
    calendar: { calendars: [{ name: "work", ics: fixturePath }] },
  });
  return calendarTool({
    calendar: calendarReaderFor(config, {}, fetch, new Secrets())!,
    clock: { now: () => new Date(now) },
    config,
  });
}

Deno.test("calendar tool: today and this week as compact lines in radar.timezone", async () => {
  const tool = icsCalendarTool("2026-11-24T08:00:00Z");
  assert.equal((await call(tool, {})).text, "Tue 24 Nov 15:30–16:00 Dentist [work]");
  assert.equal(
    (await call(tool, { range: "tomorrow" })).text,
    "Nothing on the calendar (tomorrow).",
  );
  const week = icsCalendarTool("2026-10-25T22:30:00Z"); // 23:30 on Sunday in Berlin
  assert.deepEqual((await call(week, { range: "week" })).text.split("\n"), [
    "Mon 26 Oct 09:00–09:15 Standup @ Room 4 [work]",
    "Tue 27 Oct all day Team day off [work]",
  ]);
  const next = icsCalendarTool("2026-11-01T12:00:00Z");
  assert.match(
    (await call(next, { range: "week" })).text,
    /^Mon 2 Nov 11:00–11:15 Standup \(moved\)/,
  );
});

Deno.test("calendar tool: adding needs a CalDAV calendar and never runs from the heartbeat", async () => {
  const tool = icsCalendarTool("2026-11-24T08:00:00Z");
  const add = { action: "add", title: "Call", start: "2026-11-25 09:00" };
  const yes = { ...chat, confirm: () => Promise.resolve(true) };
  assert.equal((await call(tool, add, yes)).text, "No writable (CalDAV) calendar.");
  // Nobody to say yes (radar ask, a task): refused before anything else.
  assert.equal((await call(tool, add, { ...chat, confirm: undefined })).outcome, "refused");
  const heartbeat = await call(tool, add, { ...chat, kind: "heartbeat" });
  assert.equal(heartbeat.outcome, "refused");
});
