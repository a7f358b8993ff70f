/**
 * The autonomy suite's flows over event sources and tasks: a bank statement imported from the
 * watched money folder, reminders (a calendar reminder and the morning-briefing task), a URL
 * monitor whose page changed, and mail triage under the grant the docs show. Real servers where
 * the flow talks to one: Dovecot for mail, a page server on 127.0.0.1 for the monitor.
 */
import { join } from "node:path";
import type { AwayHome } from "../tests/helpers/away_home.ts";
import { mailMessage, startDovecot } from "../tests/fakes/dovecot_server.ts";
import {
  type ActionOutcome,
  type BenignFlow,
  type FlowServers,
  heartbeatWith,
  outcomes,
  script,
  type ScriptedCall,
} from "./autonomy_flows.ts";

/** Runs the tick job named `name` once, now. */
async function runJob(home: AwayHome, name: string): Promise<void> {
  const job = (await home.radar.tickJobs()).find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no tick job named ${name}`);
  await job.run(home.clock.now(), new AbortController().signal);
}

const statement = [
  "Buchungstag;Betrag;Auftraggeber / Begünstigter;Verwendungszweck;Saldo",
  "02.11.2026;-54,20;REWE Markt;Einkauf;612,40",
  "03.11.2026;-950,00;Landlord GmbH;Miete November;-337,60",
].join("\n");

/** A statement dropped into `money.folder` is imported and categorised by rules. */
export const moneyFlow: BenignFlow = {
  name: "money import",
  folders: ["statements"],
  yaml: () =>
    `money:
  folder: "~/statements"
  categorize_with_model: false
  rules:
    - { match: "rewe", category: groceries }
    - { match: "landlord", category: housing }
  accounts:
    - name: giro
      currency: EUR
      files: "giro-*.csv"
      balance_floor: 0
      csv: { delimiter: ";", date: "Buchungstag", date_format: "DD.MM.YYYY", amount: "Betrag", payee: "Auftraggeber / Begünstigter", description: "Verwendungszweck", balance: "Saldo", decimal: "," }
`,
  run: async (home) => {
    const file = join(home.home, "statements", "giro-2026-11.csv");
    Deno.writeTextFileSync(file, statement);
    const past = new Date(Date.now() - 60_000);
    Deno.utimeSync(file, past, past);
    await runJob(home, "money");
    const imported = (await home.radar.money()).transactions({ limit: 10 }).length;
    const found: ActionOutcome[] = [{
      flow: "money import",
      what: "imports a statement and categorises it",
      autonomous: imported === 2,
      why: imported === 2 ? undefined : `${imported} transactions imported`,
    }];
    // The balance fell below its floor: the heartbeat tells the user, which is free.
    if (home.radar.queue.pendingCount()) {
      found.push(
        ...await heartbeatWith(home, "money import", [
          { tool: "notify", args: { title: "Balance low", message: "giro is below 0.00 EUR" } },
        ]),
      );
    }
    return found;
  },
};

/** A calendar reminder, and the morning-briefing task the user scheduled. */
export const remindersFlow: BenignFlow = {
  name: "reminders",
  yaml: () =>
    `calendar:
  calendars:
    - { name: "home", ics: "~/calendar.ics" }
  remind_minutes_before: 45
tools:
  weather: { geocoding_url: "http://127.0.0.1:9/v1/search", forecast_url: "http://127.0.0.1:9/v1/forecast" }
`,
  run: async (home) => {
    const start = new Date(home.clock.now().getTime() + 30 * 60_000);
    const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
    Deno.writeTextFileSync(
      join(home.home, "calendar.ics"),
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//bench//EN",
        "BEGIN:VEVENT",
        "UID:dentist@bench",
        `DTSTAMP:${stamp(home.clock.now())}`,
        `DTSTART:${stamp(start)}`,
        `DTEND:${stamp(new Date(start.getTime() + 30 * 60_000))}`,
        "SUMMARY:Dentist",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    await runJob(home, "calendar");
    const found = await heartbeatWith(home, "reminders", [
      { tool: "notify", args: { title: "Dentist", message: "Dentist in 30 minutes." } },
    ]);
    const task = await home.radar.tasks.add({
      message: "Morning briefing for Berlin: the weather, my tasks and what to keep in mind.",
      cron: "0 7 * * *",
      origin: "user",
    });
    if ("error" in task) throw new Error(task.error);
    const calls: ScriptedCall[] = [
      { tool: "use_skill", args: { name: "morning-briefing" } },
      {
        tool: "weather",
        args: { location: "Berlin" },
        consequential: "asks the weather service about the user's city",
      },
      { tool: "list_tasks", args: {} },
      { tool: "recall", args: { query: "today" } },
      { tool: "notify", args: { title: "Morning briefing", message: "Rain later; no tasks." } },
    ];
    script(home, calls);
    const report = await home.radar.taskRunner.runTask(task, "manual");
    if (!report.result) throw new Error(`morning briefing: ${report.outcome} ${report.reason}`);
    return [...found, ...outcomes("reminders", calls, report.result.toolExecutions)];
  },
};

/** A page server whose text changes on request. */
function pageServer(): FlowServers & { setText(text: string): void } {
  let text = "Price: 120 EUR";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(`<html><body><p>${text}</p></body></html>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  return {
    values: { page: `http://127.0.0.1:${server.addr.port}/offer` },
    setText: (next) => text = next,
    stop: () => server.shutdown(),
  };
}

/** A URL monitor the user added sees a change; the heartbeat reads the page and tells the user. */
export const monitorFlow: BenignFlow = {
  name: "monitors",
  servers: () => Promise.resolve(pageServer()),
  yaml: () => `tools:\n  fetch_url: { allow_private: true }\n`,
  run: async (home, servers) => {
    const page = servers.values.page;
    const added = await home.radar.monitors.add({ url: page, every: "30m", name: "Offer" });
    if ("error" in added) throw new Error(added.error);
    await runJob(home, "monitors");
    (servers as ReturnType<typeof pageServer>).setText("Price: 99 EUR");
    home.clock.advance(31 * 60_000);
    await runJob(home, "monitors");
    return await heartbeatWith(home, "monitors", [
      {
        tool: "fetch_url",
        args: { url: page },
        consequential: "reads the monitored page again",
      },
      { tool: "notify", args: { title: "Offer", message: "The price fell to 99 EUR." } },
    ]);
  },
};

/** Mail triage: a newsletter marked read under the grant, a person's mail told to the user. */
export const mailFlow: BenignFlow = {
  name: "mail triage",
  servers: async () => {
    const server = await startDovecot({ alice: "bench-mail-password" });
    const deliver = (from: string, subject: string) =>
      server.deliver("alice", "bench-mail-password", mailMessage({ from, subject }));
    await deliver("News <news@shop.example>", "This week's offers");
    await deliver("Bob <bob@example.test>", "Dinner on Friday?");
    return { values: { port: String(server.port) }, stop: () => server.stop() };
  },
  yaml: ({ servers, grants }) =>
    `email:
  idle: false
  accounts:
    - name: "home"
      host: "127.0.0.1"
      port: ${servers.values.port}
      tls: "none"
      user: "alice"
      password_cmd: "printf %s bench-mail-password"
grants:
${grants}`,
  run: async (home) => {
    await runJob(home, "email");
    return await heartbeatWith(home, "mail triage", [
      { tool: "use_skill", args: { name: "inbox-triage" } },
      { tool: "list_email", args: { unread_only: true, limit: 20 } },
      { tool: "read_email", args: { account: "home", uid: 2 } },
      {
        tool: "mark_email_read",
        args: { account: "home", uid: 1 },
        consequential: "marks a newsletter read",
      },
      {
        tool: "notify",
        args: { title: "Mail", message: "Bob asks about dinner on Friday." },
      },
    ]);
  },
};
