/**
 * A real Radicale CalDAV server for tests: 127.0.0.1 on a free port, a temp storage folder and an
 * htpasswd (plain) user file; calendars and events are created over HTTP, read back from storage.
 */
import { freePort } from "./dovecot_server.ts";
import { findProgram } from "../../scripts/system_parts.ts";

/** The radicale binary, when installed. */
export function radicalePath(): string | undefined {
  return findProgram("radicale");
}

/** A running Radicale. */
export interface RadicaleServer {
  url: string;
  /** Creates an empty calendar collection (MKCALENDAR); returns its URL. */
  addCalendar(user: string, password: string, name: string): Promise<string>;
  /** Puts an .ics file into a calendar (PUT). */
  putEvent(
    user: string,
    password: string,
    calendar: string,
    file: string,
    ics: string,
  ): Promise<void>;
  /** The .ics texts stored in a calendar. */
  storedEvents(user: string, calendar: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts Radicale with `users` (name → password). */
export async function startRadicale(users: Record<string, string>): Promise<RadicaleServer> {
  const binary = radicalePath();
  if (!binary) throw new Error("radicale is not installed");
  const dir = await Deno.makeTempDir({ prefix: "radar-radicale-" });
  const port = freePort();
  await Deno.writeTextFile(
    `${dir}/users`,
    Object.entries(users).map(([name, password]) => `${name}:${password}\n`).join(""),
  );
  await Deno.writeTextFile(
    `${dir}/config`,
    `[server]
hosts = 127.0.0.1:${port}
[auth]
type = htpasswd
htpasswd_filename = ${dir}/users
htpasswd_encryption = plain
delay = 0
[storage]
filesystem_folder = ${dir}/storage
[logging]
level = warning
`,
  );
  const child = new Deno.Command(binary, {
    args: ["--config", `${dir}/config`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const started = Date.now();
  for (;;) {
    try {
      const connection = await Deno.connect({ hostname: "127.0.0.1", port });
      connection.close();
      break;
    } catch {
      if (Date.now() - started > 15_000) {
        child.kill("SIGKILL");
        throw new Error(`radicale did not start: ${await stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const url = `http://127.0.0.1:${port}/`;
  const folder = (user: string, calendar: string) =>
    `${dir}/storage/collection-root/${user}/${calendar}`;
  return {
    url,
    async addCalendar(user, password, name) {
      const answer = await fetch(`${url}${user}/${name}/`, {
        method: "MKCALENDAR",
        headers: { Authorization: `Basic ${btoa(`${user}:${password}`)}` },
      });
      await answer.body?.cancel();
      if (answer.status !== 201) throw new Error(`MKCALENDAR answered ${answer.status}`);
      return `${url}${user}/${name}/`;
    },
    async putEvent(user, password, calendar, file, ics) {
      const answer = await fetch(`${url}${user}/${calendar}/${file}`, {
        method: "PUT",
        headers: {
          Authorization: `Basic ${btoa(`${user}:${password}`)}`,
          "Content-Type": "text/calendar",
        },
        body: ics.replace(/\r?\n/g, "\r\n"),
      });
      await answer.body?.cancel();
      if (answer.status !== 201) throw new Error(`PUT answered ${answer.status}`);
    },
    async storedEvents(user, calendar) {
      const texts: string[] = [];
      for await (const entry of Deno.readDir(folder(user, calendar))) {
        if (entry.isFile && entry.name.endsWith(".ics")) {
          texts.push(await Deno.readTextFile(`${folder(user, calendar)}/${entry.name}`));
        }
      }
      return texts;
    },
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await stderr;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
