import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteEventQueue } from "../../src/adapters/sqlite/event_queue.ts";
import { configSchema } from "../../src/config/schema.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { CalendarCheck } from "../../src/sources/calendar/calendar_check.ts";
import { ConfiguredCalendars } from "../../src/sources/calendar/calendar_reader.ts";
import { sqliteSourceStores } from "../../src/adapters/sqlite/stores.ts";
import { calendarReaderFor } from "../../src/sources/source_readers.ts";
import { calendarTool } from "../../src/tools/calendar.ts";
import { toResult } from "../../src/core/tool.ts";
import { freePort } from "../fakes/dovecot_server.ts";
import { startRadicale } from "../fakes/radicale_server.ts";
import { needing } from "../helpers/system_parts.ts";
import { Secrets } from "../../src/core/secrets.ts";

const fixturePath = new URL("../fixtures/calendar/weekly_berlin.ics", import.meta.url).pathname;
const fixture = Deno.readTextFileSync(fixturePath);
const env = { CAL_PASSWORD: "cal-secret-1", BAD_PASSWORD: "nope-nope" };

/** CalDAV stores one UID per object: the fixture split by UID (each with the VTIMEZONE). */
function objectsByUid(text: string): Map<string, string> {
  const events = text.match(/BEGIN:VEVENT[\s\S]*?END:VEVENT\n/g) ?? [];
  const head = text.slice(0, text.indexOf("BEGIN:VEVENT"));
  const byUid = new Map<string, string[]>();
  for (const event of events) {
    const uid = /UID:(\S+)/.exec(event)![1].replace(/@.*/, "");
    byUid.set(uid, [...byUid.get(uid) ?? [], event]);
  }
  return new Map(
    [...byUid].map(([uid, parts]) => [uid, `${head}${parts.join("")}END:VCALENDAR\n`]),
  );
}

function calendars(entries: unknown[]) {
  return configSchema.parse({ calendar: { calendars: entries } }).calendar.calendars;
}

function reader(entries: unknown[]) {
  return new ConfiguredCalendars(calendars(entries), {
    env,
    timeoutMs: 5000,
    fetch,
    secrets: new Secrets(),
  });
}

async function checkHarness(calendarReader: ConfiguredCalendars, start: string) {
  const dir = await Deno.makeTempDir({ prefix: "radar-calendar-" });
  const db = openDatabase(`${dir}/radar.db`);
  const { health: store, transaction } = sqliteSourceStores(db);
  const queue = new SqliteEventQueue(db);
  let now = new Date(start);
  const clock = { now: () => new Date(now) };
  const check = new CalendarCheck({
    transaction,
    store,
    queue,
    clock,
    logger: silentLogger,
    reader: calendarReader,
    everyMinutes: 15,
    remindMinutesBefore: 15,
    timeZone: "Europe/Berlin",
  });
  return {
    store,
    queue,
    check,
    set(time: string) {
      now = new Date(time);
    },
    tick: () => check.run(new Date(now), new AbortController().signal),
    async close() {
      db.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("calendar reminders from an .ics file: once per instance, in the configured zone", async () => {
  const h = await checkHarness(
    reader([{ name: "work", ics: fixturePath }]),
    "2026-11-24T14:10:00Z",
  );
  try {
    await h.tick();
    assert.equal(h.queue.pendingCount(), 0, "20 minutes before: not yet");
    h.set("2026-11-24T14:16:00Z");
    await h.tick();
    const [event] = h.queue.pending(10);
    assert.equal(event.summary, "in 14 min: Tue 24 Nov 15:30–16:00 Dentist [work]");
    assert.equal(event.source, "calendar work");
    h.set("2026-11-24T14:20:00Z");
    await h.tick();
    assert.equal(h.queue.pendingCount(), 1, "one reminder per instance");
    assert.equal(h.store.health("calendar work")?.lastError, undefined);
  } finally {
    await h.close();
  }
});

Deno.test("calendar: the moved instance of a recurring event is reminded at its new time", async () => {
  const h = await checkHarness(
    reader([{ name: "work", ics: fixturePath }]),
    "2026-11-02T07:50:00Z",
  );
  try {
    await h.tick();
    assert.equal(h.queue.pendingCount(), 0, "09:00 Berlin is no longer the time of this instance");
    h.set("2026-11-02T09:50:00Z");
    await h.tick();
    assert.equal(
      h.queue.pending(5)[0].summary,
      "in 10 min: Mon 2 Nov 11:00–11:15 Standup (moved) [work]",
    );
  } finally {
    await h.close();
  }
});

Deno.test("calendar changes in the coming week: new, moved and cancelled instances", async () => {
  const dir = await Deno.makeTempDir({ prefix: "radar-ics-" });
  const path = `${dir}/work.ics`;
  await Deno.writeTextFile(path, fixture);
  const h = await checkHarness(reader([{ name: "work", ics: path }]), "2026-11-20T08:00:00Z");
  try {
    await h.tick();
    assert.equal(h.queue.pendingCount(), 0, "the first read is a baseline");
    const edited = fixture
      .replace(
        "DTSTART:20261124T143000Z\nDTEND:20261124T150000Z",
        "DTSTART:20261124T160000Z\nDTEND:20261124T163000Z",
      )
      .replace(
        "EXDATE;TZID=Europe/Berlin:20261109T090000",
        "EXDATE;TZID=Europe/Berlin:20261109T090000,20261123T090000",
      )
      .replace(
        "END:VCALENDAR",
        "BEGIN:VEVENT\nUID:lunch@radar.test\nDTSTAMP:20261120T000000Z\nDTSTART:20261123T120000Z\n" +
          "DTEND:20261123T130000Z\nSUMMARY:Lunch with Ann\nEND:VEVENT\nEND:VCALENDAR",
      );
    assert.notEqual(edited, fixture);
    await Deno.writeTextFile(path, edited);
    h.set("2026-11-20T08:10:00Z");
    await h.tick();
    assert.equal(h.queue.pendingCount(), 0, "not read again before check_every_minutes");
    h.set("2026-11-20T08:15:00Z");
    await h.tick();
    assert.deepEqual(h.queue.pending(10).map((event) => event.summary).sort(), [
      "cancelled: Mon 23 Nov 09:00–09:15 Standup [work]",
      "moved: Tue 24 Nov 17:00–17:30 Dentist [work] (was Tue 24 Nov 15:30–16:00 Dentist [work])",
      "new: Mon 23 Nov 13:00–14:00 Lunch with Ann [work]",
    ]);
    h.set("2026-11-20T08:30:00Z");
    await h.tick();
    assert.equal(h.queue.pendingCount(), 3, "no change, no event");
  } finally {
    await h.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CalDAV over plain http is refused for a host that is not loopback", async () => {
  const remote = reader([{
    name: "work",
    caldav_url: "http://dav.example.test/me/work/",
    user: "me",
    password_env: "CAL_PASSWORD",
  }]);
  await assert.rejects(
    remote.occurrencesOf("work", new Date(), new Date()),
    /^Error: work: plain http is allowed only to a loopback host: use https:\/\/$/,
  );
});

Deno.test("calendar: a missing .ics file fails as one line and backs off", async () => {
  const h = await checkHarness(
    reader([{ name: "gone", ics: "/nonexistent/radar.ics" }]),
    "2026-11-24T14:10:00Z",
  );
  try {
    await h.tick();
    const health = h.store.health("calendar gone");
    assert.match(health?.lastError ?? "", /^gone: No such file or directory/);
    assert.equal(health?.nextCheckAt, "2026-11-24T14:40:00.000Z");
  } finally {
    await h.close();
  }
});

Deno.test(needing(["radicale"], {
  name: "CalDAV against a real Radicale: list, add, bad login, dead server",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const server = await startRadicale({ alice: env.CAL_PASSWORD });
  try {
    const calendarUrl = await server.addCalendar("alice", env.CAL_PASSWORD, "work");
    for (const [uid, text] of objectsByUid(fixture)) {
      await server.putEvent("alice", env.CAL_PASSWORD, "work", `${uid}.ics`, text);
    }
    const caldav = reader([{
      name: "work",
      caldav_url: calendarUrl,
      user: "alice",
      password_env: "CAL_PASSWORD",
    }]);

    await t.step(
      "lists expanded occurrences (recurrence, exception, DST) over CalDAV",
      async () => {
        const found = await caldav.occurrencesOf(
          "work",
          new Date("2026-10-19T00:00:00Z"),
          new Date("2026-11-03T00:00:00Z"),
        );
        assert.deepEqual(found.map((event) => `${event.start.toISOString()} ${event.title}`), [
          "2026-10-19T07:00:00.000Z Standup",
          "2026-10-26T08:00:00.000Z Standup",
          "2026-10-27T00:00:00.000Z Team day off",
          "2026-11-02T10:00:00.000Z Standup (moved)",
        ]);
      },
    );

    await t.step("adds an event the server stores and lists back", async () => {
      assert.deepEqual(caldav.writable(), ["work"]);
      const { uid } = await caldav.add("work", {
        title: "Call Bob",
        start: new Date("2026-11-25T09:00:00Z"),
        end: new Date("2026-11-25T09:30:00Z"),
        location: "Phone",
      });
      const stored = await server.storedEvents("alice", "work");
      assert.ok(
        stored.some((text) => text.includes(`UID:${uid}`) && text.includes("SUMMARY:Call Bob")),
      );
      const found = await caldav.occurrencesOf(
        "work",
        new Date("2026-11-25T00:00:00Z"),
        new Date("2026-11-26T00:00:00Z"),
      );
      assert.deepEqual(found.map((event) => [event.title, event.location]), [[
        "Call Bob",
        "Phone",
      ]]);
    });

    await t.step("the calendar tool adds an event after the user allows it", async () => {
      const config = configSchema.parse({
        radar: { timezone: "Europe/Berlin" },
        calendar: {
          calendars: [{
            name: "work",
            caldav_url: calendarUrl,
            user: "alice",
            password_env: "CAL_PASSWORD",
          }],
        },
      });
      const tool = calendarTool({
        calendar: calendarReaderFor(config, env, fetch, new Secrets())!,
        clock: { now: () => new Date("2026-11-26T08:00:00Z") },
        config,
      });
      const questions: string[] = [];
      const context = (answer: boolean) => ({
        kind: "chat" as const,
        interactive: true,
        signal: new AbortController().signal,
        confirm: (question: string) => {
          questions.push(question);
          return Promise.resolve(answer);
        },
      });
      const args = { action: "add", title: "Physio", start: "2026-11-27 16:00", minutes: 30 };
      const declined = toResult(await tool.run(args, context(false)));
      assert.equal(declined.outcome, "refused");
      const added = toResult(await tool.run(args, context(true)));
      assert.equal(added.text, "Added: Fri 27 Nov 16:00–16:30 Physio [work]");
      assert.equal(questions[0], "Add to the calendar: Fri 27 Nov 16:00–16:30 Physio [work]?");
      const listed = toResult(await tool.run({ range: "tomorrow" }, context(true)));
      assert.equal(listed.text, "Fri 27 Nov 16:00–16:30 Physio [work]");
      // Issue 23: asked again (a retried run, a model repeating itself), nothing is stored twice.
      const again = toResult(await tool.run(args, context(true)));
      assert.equal(again.text, "Already on the calendar: Fri 27 Nov 16:00–16:30 Physio [work]");
      // Unattended (radar ask, a task): nobody can say yes, so nothing is added.
      const unattended = toResult(
        await tool.run({ ...args, title: "Plumber visit" }, {
          kind: "ask",
          interactive: false,
          signal: new AbortController().signal,
        }),
      );
      assert.equal(unattended.outcome, "refused", unattended.text);
      assert.match(unattended.text, /radar chat/);
      const stored = await server.storedEvents("alice", "work");
      assert.equal(stored.filter((text) => text.includes("SUMMARY:Physio")).length, 1);
      assert.ok(!stored.some((text) => text.includes("SUMMARY:Plumber visit")));
    });

    await t.step("bad credentials are one line without the password", async () => {
      const wrong = reader([{
        name: "work",
        caldav_url: calendarUrl,
        user: "alice",
        password_env: "BAD_PASSWORD",
      }]);
      await assert.rejects(
        wrong.occurrencesOf(
          "work",
          new Date("2026-11-25T00:00:00Z"),
          new Date("2026-11-26T00:00:00Z"),
        ),
        (error: Error) => {
          assert.equal(
            error.message,
            `work: login failed for alice at ${calendarUrl} (wrong user or password)`,
          );
          return true;
        },
      );
    });
  } finally {
    await server.stop();
  }

  await t.step("a dead server is one line", async () => {
    const url = `http://127.0.0.1:${freePort()}/alice/work/`;
    const dead = reader([{
      name: "work",
      caldav_url: url,
      user: "alice",
      password_env: "CAL_PASSWORD",
    }]);
    const { events, errors } = await dead.occurrences(
      new Date(),
      new Date(Date.now() + 86_400_000),
    );
    assert.deepEqual(events, []);
    assert.deepEqual(errors, [`work: cannot connect to ${url}: connection refused`]);
  });
}));
