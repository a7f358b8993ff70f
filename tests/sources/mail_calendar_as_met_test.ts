/**
 * Mail and calendars as a person with two mailboxes and a few calendars meets them, through a
 * real Radar (tools called by the fake LLM) against a real Dovecot and a real Radicale: every time
 * is shown in radar.timezone with its offset, one broken account never hides the healthy one, and
 * a TZID without a VTIMEZONE block is read as the IANA zone it names (an unknown one says so).
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/adapters/clock.ts";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { mailMessage, startDovecot } from "../fakes/dovecot_server.ts";
import { startRadicale } from "../fakes/radicale_server.ts";
import { needing } from "../helpers/system_parts.ts";
import { chatTurn, noRetriesYaml, withFakeLlmHome } from "../helpers/fake_llm_home.ts";

const password = "Mail-pw-2718";

Deno.test(needing(["dovecot"], {
  name: "list_email: each account answers on its own, times in radar.timezone with the offset",
  async fn() {
    const mail = await startDovecot({ alice: password });
    try {
      const account = (name: string, secret: string) =>
        `    - name: ${name}\n      host: 127.0.0.1\n      port: ${mail.port}\n` +
        `      tls: none\n      user: alice\n      password_cmd: "echo ${secret}"\n`;
      await withFakeLlmHome({
        prefix: "radar-mail-as-met-",
        yaml: `${noRetriesYaml}radar:\n  timezone: Europe/Berlin\nemail:\n  accounts:\n` +
          account("badpw", "not-the-password") + account("home", password),
      }, async (home) => {
        await mail.deliver(
          "alice",
          password,
          mailMessage({
            from: "Ana <ana@example.test>",
            subject: "Lunch at 15:30?",
            date: "Thu, 26 Nov 2026 14:30:00 +0000",
          }),
        );
        await home.withRadar(async (radar) => {
          home.server.reply(
            ollamaToolCall("list_email", {}),
            ollamaToolCall("read_email", { account: "home", uid: 1 }),
            ollamaToolCall("list_email", { account: "badpw" }),
            ollamaText("Done."),
          );
          const { result } = await chatTurn(radar, "any new mail?");
          const [list, read, broken] = result.toolExecutions.map((execution) => execution.result);
          assert.equal(list.outcome, "ok", list.text);
          const lines = list.text.split("\n");
          assert.deepEqual(lines.length, 2, list.text);
          assert.match(
            lines[0],
            /^home uid 1 · 2026-11-26 15:30 UTC\+01:00 · Ana <ana@example\.test> · Lunch/,
          );
          assert.match(lines[1], /^badpw: login failed for alice at 127\.0\.0\.1:\d+/);
          assert.ok(!list.text.includes("not-the-password"));
          assert.equal(read.outcome, "ok", read.text);
          assert.match(read.text, /^home uid 1 · 2026-11-26 15:30 UTC\+01:00 · /);
          // Asked for by name, a broken account is the tool's failure, in one line.
          assert.equal(broken.outcome, "error");
          assert.match(broken.text, /^badpw: login failed/);
          assert.equal(broken.text.split("\n").length, 1);
        });
      });
    } finally {
      await mail.stop();
    }
  },
}));

/** One VEVENT with a TZID and no VTIMEZONE block, as generated feeds write them. */
function bareZoneEvent(uid: string, zone: string, title: string, start: string, end: string) {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Feed generator//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20261120T000000Z",
    `DTSTART;TZID=${zone}:${start}`,
    `DTEND;TZID=${zone}:${end}`,
    `SUMMARY:${title}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

Deno.test(needing(["radicale"], {
  name: "calendar: a TZID without VTIMEZONE is read as its IANA zone; an unknown zone says so",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const calPassword = "cal-pw-31415";
    const server = await startRadicale({ alice: calPassword });
    try {
      const url = await server.addCalendar("alice", calPassword, "feeds");
      await server.putEvent(
        "alice",
        calPassword,
        "feeds",
        "tokyo.ics",
        bareZoneEvent(
          "tokyo@feed",
          "Asia/Tokyo",
          "Tokyo call",
          "20261126T090000",
          "20261126T100000",
        ),
      );
      await server.putEvent(
        "alice",
        calPassword,
        "feeds",
        "mars.ics",
        bareZoneEvent(
          "mars@feed",
          "Mars/Olympus",
          "Rover check",
          "20261126T120000",
          "20261126T123000",
        ),
      );
      await withFakeLlmHome({
        prefix: "radar-calendar-as-met-",
        clock: new ManualClock(new Date("2026-11-25T12:00:00Z")),
        yaml: `${noRetriesYaml}radar:\n  timezone: Europe/Berlin\ncalendar:\n  calendars:\n` +
          `    - name: feeds\n      caldav_url: ${url}\n      user: alice\n` +
          `      password_cmd: "echo ${calPassword}"\n`,
      }, async (home) => {
        await home.withRadar(async (radar) => {
          home.server.reply(
            ollamaToolCall("calendar", { range: "tomorrow" }),
            ollamaText("Done."),
          );
          const { result } = await chatTurn(radar, "what is on tomorrow?");
          const listing = result.toolExecutions[0].result;
          assert.equal(listing.outcome, "ok", listing.text);
          // 09:00 in Tokyo is 01:00 in Berlin, not 10:00 (UTC read as Berlin's wall clock).
          assert.match(listing.text, /^Thu 26 Nov 01:00–02:00 Tokyo call \[feeds\]$/m);
          assert.match(
            listing.text,
            /^Thu 26 Nov 13:00–13:30 Rover check \[feeds\] \(unknown time zone "Mars\/Olympus": time read as UTC\)$/m,
          );
        });
      });
    } finally {
      await server.stop();
    }
  },
}));
