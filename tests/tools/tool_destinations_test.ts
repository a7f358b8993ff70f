/**
 * Every built-in tool that sends data off the machine says exactly where (origins, from the
 * config), and every tool's results carry a label: the web is public, the user's files, mail,
 * memory and command output private, Radar's own confirmations no label.
 */
import assert from "node:assert/strict";
import { builtinTools } from "../../src/tools/index.ts";
import type { Destinations, ResultLabel, Tool } from "../../src/core/tool.ts";
import { SubprocessComicArchives } from "../../src/adapters/archive/subprocess_comic_archives.ts";
import type { RadarConfig } from "../../src/config/schema.ts";
import { tempHome, toolDeps } from "./tool_harness.ts";

function toolsWith(edit: (config: RadarConfig) => void): Map<string, Tool> {
  const home = tempHome();
  try {
    const comicArchives = new SubprocessComicArchives({ timeoutMs: 1_000, env: {} });
    const mail = { accounts: () => ["home"] } as never;
    const calendar = { writable: () => ["work"] } as never;
    const monitors = {} as never;
    const tools = builtinTools(toolDeps(home, edit, { comicArchives, mail, calendar, monitors }));
    return new Map(tools.map((tool) => [tool.name, tool]));
  } finally {
    home.dispose();
  }
}

function destinations(tool: Tool | undefined, args: Record<string, unknown>): Destinations {
  return tool?.destinations?.(args) ?? "anywhere";
}

function label(tool: Tool | undefined, args: Record<string, unknown> = {}): ResultLabel {
  const declared = tool?.results;
  return typeof declared === "function"
    ? declared(args)
    : declared ?? (tool?.resultIsData === false ? "own_words" : "private");
}

Deno.test("tools that send say where, as exact origins from the config", () => {
  const tools = toolsWith((config) => {
    config.email.accounts = [
      { name: "home", host: "Mail.Example", port: 993, tls: "implicit" },
      { name: "old", host: "127.0.0.1", port: 1143, tls: "none" },
    ] as RadarConfig["email"]["accounts"];
    config.calendar.calendars = [
      { name: "work", caldav_url: "https://dav.example:8443/cal/work/", ics: "" },
    ] as RadarConfig["calendar"]["calendars"];
    config.library.comicvine.api_key = "k";
    config.tools.web_search.provider = "brave";
    config.tools.exec.enabled = true;
    config.tools.exec.allow_network = true;
  });
  assert.deepEqual(destinations(tools.get("fetch_url"), { url: "http://a.example:8080/x?q=1" }), [
    "http://a.example:8080",
  ]);
  assert.equal(destinations(tools.get("fetch_url"), { url: "not a url" }), "anywhere");
  assert.deepEqual(destinations(tools.get("web_search"), { query: "x" }), [
    "https://api.search.brave.com",
  ]);
  assert.deepEqual(destinations(tools.get("weather"), { location: "Berlin" }), [
    "https://geocoding-api.open-meteo.com",
    "https://api.open-meteo.com",
  ]);
  assert.deepEqual(destinations(tools.get("mark_email_read"), { account: "home", uid: 1 }), [
    "imaps://mail.example",
  ]);
  assert.deepEqual(destinations(tools.get("mark_email_read"), { account: "old", uid: 1 }), [
    "imap://127.0.0.1:1143",
  ]);
  assert.equal(destinations(tools.get("mark_email_read"), { account: "nope", uid: 1 }), "anywhere");
  assert.deepEqual(
    destinations(tools.get("calendar"), { action: "add", title: "x", start: "2026-11-25 09:00" }),
    ["https://dav.example:8443"],
  );
  assert.deepEqual(destinations(tools.get("comic_info"), { path: "~/a.cbz" }), [
    "https://comicvine.gamespot.com",
  ]);
  assert.deepEqual(destinations(tools.get("monitor_url"), { url: "https://shop.example/p" }), [
    "https://shop.example",
  ]);
  // A command with network access reaches what it computes: no origin list can say.
  assert.equal(destinations(tools.get("exec"), { command: "curl 10.0.0.5:8080/x" }), "anywhere");
});

Deno.test("comic_info reads send when a lookup is configured, and only then", () => {
  const without = toolsWith(() => {});
  const withLookup = toolsWith((config) => config.library.open_library.enabled = true);
  const effectOf = (tools: Map<string, Tool>) => {
    const effect = tools.get("comic_info")!.effect;
    return typeof effect === "function" ? effect({ path: "~/a.pdf" }) : effect;
  };
  assert.equal(effectOf(without), "none");
  assert.equal(effectOf(withLookup), "sends_out");
  assert.deepEqual(destinations(withLookup.get("comic_info"), { path: "~/a.pdf" }), [
    "https://openlibrary.org",
  ]);
});

Deno.test("results are labelled: the web public, the user's data private, Radar's words none", () => {
  const tools = toolsWith(() => {});
  assert.equal(label(tools.get("fetch_url"), { url: "https://a.example" }), "public");
  assert.equal(label(tools.get("web_search")), "public");
  assert.equal(label(tools.get("weather")), "public");
  for (const name of ["read_file", "list_directory", "pdf_extract", "recall", "read_email"]) {
    assert.equal(label(tools.get(name)), "private", name);
  }
  for (const name of ["write_file", "move_file", "notify", "remember"]) {
    assert.equal(label(tools.get(name)), "own_words", name);
  }
  // With private addresses allowed a page may be the user's own router or intranet.
  const intranet = toolsWith((config) => config.tools.fetch_url.allow_private = true);
  assert.equal(label(intranet.get("fetch_url"), { url: "http://10.0.0.1" }), "private");
});
