/**
 * Each feature's first use, timed in a fresh Radar process (bench/feature_probe.ts): mail against
 * a real Dovecot, a calendar from an .ics file, an HTTP MCP server, a bank statement import, the
 * browser on a loopback page, and a comic's metadata. What the first use costs over the second is
 * what loading the feature on first use (its modules, stores, schemas, program) costs, and what
 * an idle daemon or a short command is spared while the feature is unused.
 */
import { join } from "node:path";
import type { BenchLine } from "./index.ts";
import { radarEnvironment, radarFlags } from "../tests/helpers/radar_process.ts";
import { mailMessage, startDovecot } from "../tests/fakes/dovecot_server.ts";
import { startHttpMcpServer } from "../tests/fixtures/mcp/http_server.ts";
import { ofxSgml } from "../tests/helpers/statement_fixtures.ts";
import { buildCbz, comicInfoXml, pages } from "../tests/helpers/comic_factory.ts";
import { findProgram } from "../scripts/system_parts.ts";

const probe = new URL("./feature_probe.ts", import.meta.url).pathname;

interface ProbeResult {
  first: number;
  second: number;
  rssBefore: number;
  rssAfter: number;
}

/** Runs the probe for `feature` in a fresh home with `config` (YAML) and `input`. */
async function runProbe(
  feature: string,
  config: string,
  input: Record<string, string> = {},
  before?: (env: Record<string, string>) => Promise<void>,
): Promise<ProbeResult> {
  const home = Deno.makeTempDirSync({ prefix: `radar-bench-${feature}-` });
  try {
    Deno.writeTextFileSync(join(home, "radar.yaml"), config);
    const env = radarEnvironment(home, {
      RADAR_CONFIG: join(home, "radar.yaml"),
      RADAR_PROBE: JSON.stringify(input),
    });
    await before?.(env);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...radarFlags, probe, feature],
      cwd: home,
      env,
      clearEnv: true,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(output.stdout).trim().split("\n").at(-1) ?? "";
    if (!output.success || !text.startsWith("{")) {
      const stderr = new TextDecoder().decode(output.stderr).trim().split("\n");
      throw new Error(stderr.find((line) => /error/i.test(line)) ?? stderr.at(-1));
    }
    return JSON.parse(text);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

/** The probe's argv for `mcp-tools` (the approval, in the same home, before the timed run). */
function mcpApproval(env: Record<string, string>): Promise<void> {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...radarFlags, probe, "mcp-tools"],
    cwd: env.HOME,
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "inherit",
  }).output().then((output) => {
    if (!output.success) throw new Error("could not approve the MCP server");
  });
}

/** A week's .ics with one event tomorrow. */
function calendarFile(dir: string): string {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10).replace(/-/g, "");
  const path = join(dir, "home.ics");
  Deno.writeTextFileSync(
    path,
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//radar bench//EN",
      "BEGIN:VEVENT",
      "UID:bench-1@radar",
      `DTSTART:${tomorrow}T090000Z`,
      `DTEND:${tomorrow}T100000Z`,
      "SUMMARY:Dentist",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n"),
  );
  return path;
}

type Feature = {
  name: string;
  /** Why it cannot run here, or undefined. */
  missing?: () => string | undefined;
  run(dir: string): Promise<ProbeResult>;
};

const features: Feature[] = [
  {
    name: "mail (IMAP list against a real Dovecot)",
    missing: () => findProgram("dovecot") ? undefined : "dovecot is not installed",
    async run() {
      const server = await startDovecot({ alice: "pw-bench" });
      try {
        await server.deliver(
          "alice",
          "pw-bench",
          mailMessage({ from: "Bob <bob@example.test>", subject: "Plans", html: "<p>Hi</p>" }),
        );
        return await runProbe(
          "mail",
          `email:\n  accounts:\n    - name: home\n      host: "127.0.0.1"\n      port: ${server.port}\n      tls: none\n      user: alice\n      password_cmd: "printf '%s\\\\n' pw-bench"\n`,
        );
      } finally {
        await server.stop();
      }
    },
  },
  {
    name: "calendar (an .ics file, this week)",
    run: (dir) =>
      runProbe(
        "calendar",
        `calendar:\n  calendars:\n    - name: home\n      ics: "${calendarFile(dir)}"\n`,
      ),
  },
  {
    name: "MCP (an approved HTTP server, one tool call)",
    async run() {
      const server = startHttpMcpServer();
      try {
        return await runProbe(
          "mcp",
          `mcp:\n  servers:\n    - name: probe\n      url: "${server.url}"\n`,
          {},
          mcpApproval,
        );
      } finally {
        await server.close();
      }
    },
  },
  {
    name: "money (an OFX statement imported)",
    run(dir) {
      const statement = (name: string, day: string) => {
        const path = join(dir, name);
        Deno.writeTextFileSync(
          path,
          ofxSgml([{ date: `2026-11-${day}`, amount: "-12.50", payee: "Bakery", id: day }]),
        );
        return path;
      };
      return runProbe("money", "", {
        statement: statement("first.ofx", "02"),
        second: statement("second.ofx", "03"),
      });
    },
  },
  {
    name: "browser (Chromium opens a loopback page)",
    missing: () => findProgram("chromium") ? undefined : "chromium is not installed",
    async run() {
      const server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen() {} },
        () =>
          new Response("<title>Bench</title><p>Hello</p>", {
            headers: { "content-type": "text/html" },
          }),
      );
      try {
        return await runProbe(
          "browser",
          `browser:\n  executable: "${findProgram("chromium")}"\n  allowed_hosts: ["127.0.0.1"]\n`,
          { url: `http://127.0.0.1:${server.addr.port}/` },
        );
      } finally {
        await server.shutdown();
      }
    },
  },
  {
    name: "comics (ComicInfo of a CBZ read)",
    async run(dir) {
      const comic = join(dir, "Saga 001.cbz");
      Deno.writeFileSync(
        comic,
        await buildCbz([
          ...pages(3),
          { name: "ComicInfo.xml", text: comicInfoXml({ Series: "Saga", Number: 1 }) },
        ]),
      );
      return runProbe("comics", "", { comic });
    },
  },
];

/** One line per feature: first use, then the second use, and the RSS the first use added. */
export async function featureFirstUse(): Promise<BenchLine[]> {
  const lines: BenchLine[] = [];
  for (const feature of features) {
    const missing = feature.missing?.();
    if (missing) {
      lines.push({ metric: `first use of ${feature.name}: not measured`, value: 0, unit: missing });
      continue;
    }
    const dir = Deno.makeTempDirSync({ prefix: "radar-bench-feature-" });
    try {
      const result = await feature.run(dir);
      lines.push({
        metric: `first use of ${feature.name}`,
        value: Math.round(result.first),
        unit: `ms (the second use ${Math.round(result.second)} ms; RSS ${
          result.rssBefore.toFixed(0)
        } → ${result.rssAfter.toFixed(0)} MB)`,
      });
    } catch (error) {
      lines.push({
        metric: `first use of ${feature.name}: failed`,
        value: 0,
        unit: error instanceof Error ? error.message : String(error),
      });
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
  return lines;
}
