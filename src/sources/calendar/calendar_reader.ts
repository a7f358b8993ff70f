/**
 * The configured calendars: .ics files and URLs, and CalDAV collections (npm tsdav), expanded
 * with ical.js. CalDAV calendars can take new events. Failures are one line per calendar.
 */
import { DAVClient } from "tsdav";
import type { z } from "zod";
import { expandHome } from "../../config/paths.ts";
import type { calendarEntry } from "../../config/sources_schema.ts";
import { redactText, type SecretKeeper } from "../../core/secrets.ts";
import type {
  CalendarOccurrence,
  CalendarReader,
  NewCalendarEvent,
} from "../../core/source_ports.ts";
import { readPassword } from "../../adapters/os/account_secrets.ts";
import { newEventIcs, occurrencesIn } from "./ics_occurrences.ts";
import { isLoopbackHost } from "../../adapters/network/address_policy.ts";
import { readCapped } from "../../adapters/network/bounded_read.ts";
import { sha256Hex } from "../../core/bytes.ts";

/** One configured calendar. */
export type CalendarEntry = z.output<typeof calendarEntry>;

/** What the reader needs. */
export interface CalendarReaderSettings {
  env: Record<string, string | undefined>;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Told a CalDAV password when it is read. */
  secrets: SecretKeeper;
}

/** An .ics file or answer larger than this is refused. */
const maxIcsBytes = 5 * 1024 * 1024;

/** Reads the configured calendars. */
export class ConfiguredCalendars implements CalendarReader {
  constructor(
    private readonly entries: readonly CalendarEntry[],
    private readonly settings: CalendarReaderSettings,
  ) {}

  calendars(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  writable(): string[] {
    return this.entries.filter((entry) => entry.caldav_url).map((entry) => entry.name);
  }

  async occurrences(from: Date, to: Date, signal?: AbortSignal) {
    const events: CalendarOccurrence[] = [];
    const errors: string[] = [];
    for (const entry of this.entries) {
      try {
        events.push(...await this.occurrencesOf(entry.name, from, to, signal));
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    events.sort((a, b) => a.start.getTime() - b.start.getTime());
    return { events, errors };
  }

  /** The occurrences of one calendar; throws one line naming it. */
  async occurrencesOf(name: string, from: Date, to: Date, signal?: AbortSignal) {
    const entry = this.#entry(name);
    try {
      const texts = entry.ics
        ? [await this.#icsText(entry.ics, signal)]
        : await this.#withCalDav(entry, async (client, calendar) => {
          const objects = await client.fetchCalendarObjects({
            calendar,
            timeRange: { start: from.toISOString(), end: to.toISOString() },
          });
          return objects.map((object) => String(object.data ?? ""));
        });
      return texts.flatMap((text) => (text ? occurrencesIn(text, entry.name, from, to) : []))
        .sort((a, b) => a.start.getTime() - b.start.getTime());
    } catch (error) {
      throw new Error(this.#line(entry, error));
    }
  }

  async add(
    name: string,
    event: NewCalendarEvent,
    _signal?: AbortSignal,
  ): Promise<{ uid: string; added: boolean }> {
    const entry = this.#entry(name);
    if (!entry.caldav_url) {
      throw new Error(`${name}: events can only be added to a CalDAV calendar`);
    }
    const uid = await eventUid(name, event);
    let added = true;
    try {
      await this.#withCalDav(entry, async (client, calendar) => {
        // createCalendarObject sends If-None-Match: *: the same event a second time is a 412.
        const answer = await client.createCalendarObject({
          calendar,
          filename: `${uid}.ics`,
          iCalString: newEventIcs(event, uid, new Date()),
        });
        if (answer.status === 412) added = false;
        else if (!answer.ok) {
          throw new Error(`the server answered ${answer.status} ${answer.statusText}`);
        }
      });
    } catch (error) {
      throw new Error(this.#line(entry, error));
    }
    return { uid, added };
  }

  #entry(name: string): CalendarEntry {
    const entry = this.entries.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`No calendar "${name}" (have: ${this.calendars().join(", ")})`);
    return entry;
  }

  #line(entry: CalendarEntry, error: unknown): string {
    const message = String((error as Error).message ?? error).split("\n")[0].slice(0, 300);
    const prefix = `${entry.name}: `;
    return redactText(message.startsWith(prefix) ? message : prefix + message);
  }

  async #icsText(location: string, signal?: AbortSignal): Promise<string> {
    if (!/^https?:\/\//i.test(location)) {
      const path = expandHome(location, this.settings.env);
      const info = await Deno.stat(path);
      if (info.size > maxIcsBytes) throw new Error(`${path} is larger than 5 MB`);
      return await Deno.readTextFile(path);
    }
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const answer = await this.settings.fetch(location, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: { Accept: "text/calendar" },
    });
    if (!answer.ok) {
      await answer.body?.cancel();
      throw new Error(`${redactText(location)} answered ${answer.status}`);
    }
    const { bytes, cut } = await readCapped(answer, maxIcsBytes);
    if (cut) throw new Error("the calendar is larger than 5 MB");
    return new TextDecoder().decode(bytes);
  }

  async #withCalDav<T>(
    entry: CalendarEntry,
    work: (client: DAVClient, calendar: DavCalendar) => Promise<T>,
  ): Promise<T> {
    const url = new URL(entry.caldav_url);
    if (url.protocol !== "https:" && !isLoopbackHost(url.hostname)) {
      throw new Error(`plain http is allowed only to a loopback host: use https://`);
    }
    const password = await readPassword(entry, `calendar ${entry.name}`, this.settings);
    const client = new DAVClient({
      serverUrl: entry.caldav_url,
      credentials: { username: entry.user, password },
      authMethod: "Basic",
      defaultAccountType: "caldav",
    });
    return await withTimeout(this.settings.timeoutMs, entry.caldav_url, async () => {
      try {
        await client.login();
        const calendars = await client.fetchCalendars();
        const wanted = normalizedUrl(entry.caldav_url);
        const calendar = calendars.find((candidate) => normalizedUrl(candidate.url) === wanted) ??
          calendars.find((candidate) => candidate.components?.includes("VEVENT"));
        if (!calendar) throw new Error(`no calendar found at ${entry.caldav_url}`);
        return await work(client, calendar);
      } catch (error) {
        throw new Error(redactText(describeDavError(entry, error), [password]));
      }
    });
  }
}

type DavCalendar = Awaited<ReturnType<DAVClient["fetchCalendars"]>>[number];

function normalizedUrl(url: string): string {
  try {
    return new URL(url).href.replace(/\/?$/, "/");
  } catch {
    return url;
  }
}

function describeDavError(entry: CalendarEntry, error: unknown): string {
  const value = error as {
    message?: string;
    code?: string;
    cause?: { code?: string; message?: string };
  };
  const text = `${value.message ?? ""} ${value.code ?? ""} ${value.cause?.code ?? ""} ` +
    `${value.cause?.message ?? ""}`;
  if (/ECONNREFUSED|Connection refused/i.test(text)) {
    return `cannot connect to ${entry.caldav_url}: connection refused`;
  }
  if (/Invalid credentials|401|Unauthorized/i.test(text)) {
    return `login failed for ${entry.user} at ${entry.caldav_url} (wrong user or password)`;
  }
  return value.message ?? String(error);
}

async function withTimeout<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in time`)), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The UID of an event Radar adds: a hash of the calendar, title, times and place. */
async function eventUid(calendar: string, event: NewCalendarEvent): Promise<string> {
  const identity = JSON.stringify([
    calendar,
    event.title,
    event.start.toISOString(),
    event.end.toISOString(),
    event.location ?? "",
  ]);
  return `${(await sha256Hex(identity)).slice(0, 32)}@radar`;
}
