import assert from "node:assert/strict";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { configSchema } from "../../src/config/schema.ts";
import type { RadarConfig } from "../../src/config/schema.ts";
import { mailAndCalendarHealth } from "../../src/sources/source_health.ts";
import { sourceHealthLines } from "../../src/sources/source_health_text.ts";
import { SqliteSourceStore } from "../../src/adapters/sqlite/source_store.ts";
import type { SourceStore } from "../../src/sources/source_stores.ts";

const sourceStatusLines = (config: RadarConfig, store: SourceStore) =>
  sourceHealthLines(mailAndCalendarHealth(config, store));

Deno.test("radar status shows each source's last check and last error", () => {
  const db = openDatabase(":memory:");
  const store = new SqliteSourceStore(db);
  try {
    assert.deepEqual(sourceStatusLines(configSchema.parse({}), store), [
      "sources:   no email accounts or calendars configured",
    ]);
    const config = configSchema.parse({
      email: {
        accounts: [
          { name: "home", host: "h", user: "u", password_env: "P" },
          { name: "work", host: "w", user: "u", password_cmd: "pass show work" },
        ],
      },
      calendar: { calendars: [{ name: "family", ics: "~/family.ics" }] },
    });
    const at = new Date("2026-11-23T10:00:00Z");
    store.recordSuccess("email home", at, new Date("2026-11-23T10:05:00Z"), "1");
    store.recordFailure(
      "email work",
      at,
      "work: cannot connect to w:993: connection refused",
      () => new Date("2026-11-23T10:10:00Z"),
    );
    assert.deepEqual(sourceStatusLines(config, store), [
      "sources:",
      "  email home: ok (last check 2026-11-23 10:00 UTC)",
      "  email work: FAILING (1× in a row, last 2026-11-23 10:00 UTC; next try 2026-11-23 10:10 UTC): " +
      "work: cannot connect to w:993: connection refused",
      "  calendar family: not checked yet (checked by radar serve)",
    ]);
    store.recordSuccess(
      "email work",
      new Date("2026-11-23T10:10:00Z"),
      new Date("2026-11-23T10:15:00Z"),
    );
    // In radar.timezone, the offset named.
    assert.equal(
      sourceHealthLines(mailAndCalendarHealth(config, store), "Europe/Berlin")[1],
      "  email home: ok (last check 2026-11-23 11:00 UTC+01:00)",
    );
    assert.match(sourceStatusLines(config, store)[2], /email work: ok/);
    assert.deepEqual(mailAndCalendarHealth(config, store)[1], {
      kind: "email",
      name: "work",
      state: "ok",
      lastCheckAt: "2026-11-23T10:10:00.000Z",
      failures: 0,
    });
  } finally {
    db.close();
  }
});

Deno.test("config: an account needs a password source; tls none is the user's explicit choice", () => {
  assert.throws(() =>
    configSchema.parse({ email: { accounts: [{ name: "a", host: "h", user: "u" }] } })
  );
  assert.throws(() => configSchema.parse({ calendar: { calendars: [{ name: "c" }] } }));
  const parsed = configSchema.parse({});
  assert.deepEqual([parsed.email.accounts, parsed.calendar.calendars], [[], []]);
  assert.equal(parsed.calendar.remind_minutes_before, 15);
});
