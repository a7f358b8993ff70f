import assert from "node:assert/strict";
import { join } from "node:path";
import { parseArgumentsText } from "../../src/core/tool_registry.ts";
import { createPluginApi } from "../../src/plugins/plugin_api.ts";
import { echoPlugin, pluginFixture } from "./helpers.ts";

const context = { kind: "ask" as const, interactive: false, signal: new AbortController().signal };

async function callTool(fixture: ReturnType<typeof pluginFixture>, name: string, args: unknown) {
  const execution = await fixture.registry.execute(
    { id: "1", name, arguments: JSON.stringify(args) },
    { offered: new Set([name]), context, maxResultChars: 8000, elapsed: () => 0 },
  );
  return execution.result;
}

Deno.test("install → review → approve → the tool runs in the sandbox through the registry", async () => {
  const fixture = pluginFixture();
  try {
    const review = fixture.system.manager.install(fixture.source("echoer", echoPlugin()));
    assert.deepEqual(review.errors, []);
    assert.equal(fixture.system.api.list()[0].status, "pending_review");
    assert.equal(fixture.registry.get("echoer_echo"), undefined, "not before approval");
    const pending = fixture.system.api.pendingReviews();
    assert.equal(pending.length, 1);
    assert.match(pending[0].files["tool.ts"], /export function echoer_echo/);
    assert.deepEqual(pending[0].permissions, [
      "no access to files, network or environment (computation only)",
    ]);
    await fixture.system.api.approve("echoer");
    assert.equal(fixture.system.api.list()[0].status, "enabled");
    assert.deepEqual(await callTool(fixture, "echoer_echo", { text: "hi" }), {
      outcome: "ok",
      text: "echo hi",
    });
    const invalid = await callTool(fixture, "echoer_echo", { text: 3 });
    assert.equal(invalid.outcome, "error");
    assert.match(invalid.text, /Invalid arguments/);
    assert.ok(fixture.records.findApproval("echoer", review.filesHash));
    await fixture.system.api.disable("echoer");
    assert.equal(fixture.registry.get("echoer_echo"), undefined);
  } finally {
    await fixture.close();
  }
});

Deno.test("a changed file sends an approved plugin back to review, with a permission diff", async () => {
  const fixture = pluginFixture();
  try {
    const files = {
      ...echoPlugin("fetcher"),
      "manifest.yaml": echoPlugin("fetcher")["manifest.yaml"].replace(
        "trust_level: sandbox",
        'trust_level: local\npermissions:\n  net: ["a.example:443"]',
      ),
    };
    fixture.system.manager.install(fixture.source("fetcher", files));
    await fixture.system.api.approve("fetcher");
    const available = join(fixture.system.manager.dirs.available, "fetcher");
    Deno.writeTextFileSync(
      join(available, "manifest.yaml"),
      files["manifest.yaml"].replace('["a.example:443"]', '["a.example:443", "b.example:443"]'),
    );
    const changes = await fixture.system.refresh();
    assert.deepEqual(changes, ["fetcher: files changed since approval, back to review"]);
    assert.equal(fixture.registry.get("fetcher_echo"), undefined, "unapproved code is not offered");
    const details = fixture.system.api.details("fetcher");
    assert.equal(details.summary?.status, "pending_review");
    assert.deepEqual(details.permissionDiff, {
      sinceApproval: true,
      added: [{ kind: "net", target: "b.example:443", description: "connect to b.example:443" }],
      removed: [],
      unchanged: [{
        kind: "net",
        target: "a.example:443",
        description: "connect to a.example:443",
      }],
    });
    assert.ok(details.warnings.some((line) => line.includes("local trust")));
  } finally {
    await fixture.close();
  }
});

Deno.test("a folder dropped into <data>/plugins is picked up; invalid ones land in failed/", async () => {
  const fixture = pluginFixture();
  try {
    const root = fixture.system.manager.dirs.root;
    const { writeFolder } = await import("../../src/plugins/plugin_directories.ts");
    writeFolder(join(root, "dropped"), echoPlugin("dropped"));
    writeFolder(join(root, "broken"), { "manifest.yaml": "name: broken\n", "tool.ts": "" });
    const changes = await fixture.system.refresh();
    assert.equal(changes.length, 2);
    const statuses = Object.fromEntries(
      fixture.system.api.list().map((row) => [row.name, row.status]),
    );
    assert.deepEqual(statuses, { dropped: "pending_review", broken: "failed" });
    const failed = Deno.readTextFileSync(
      join(fixture.system.manager.dirs.failed, "broken", "errors.txt"),
    );
    assert.match(failed, /version/);
  } finally {
    await fixture.close();
  }
});

Deno.test("symlinks and imports outside the folder are refused at install", async () => {
  const fixture = pluginFixture();
  try {
    const symlinked = fixture.source("linker", echoPlugin("linker"));
    Deno.symlinkSync("/etc/passwd", join(symlinked, "passwd"));
    assert.match(fixture.system.manager.install(symlinked).errors[0], /symbolic link/);
    const importing = fixture.source("importer", {
      ...echoPlugin("importer"),
      "tool.ts": 'import x from "npm:left-pad@1.3.0";\nexport const importer_echo = x;\n',
    });
    assert.match(fixture.system.manager.install(importing).errors[0], /relative imports only/);
  } finally {
    await fixture.close();
  }
});

Deno.test("reject, test, rollback and remove", async () => {
  const fixture = pluginFixture();
  const manager = fixture.system.manager;
  try {
    manager.install(fixture.source("echoer", echoPlugin()));
    const outcomes = await manager.test("echoer");
    assert.deepEqual(outcomes.map((outcome) => outcome.passed), [true]);
    manager.approve("echoer");
    const v2 = echoPlugin("echoer", "`v2 ${args.text}`");
    v2["manifest.yaml"] = v2["manifest.yaml"].replace("1.0.0", "2.0.0");
    manager.install(fixture.source("echoer", v2));
    manager.approve("echoer");
    await fixture.system.refresh();
    assert.equal((await callTool(fixture, "echoer_echo", { text: "x" })).text, "v2 x");
    manager.rollback("echoer", "1.0.0");
    await fixture.system.refresh();
    assert.equal((await callTool(fixture, "echoer_echo", { text: "x" })).text, "echo x");
    assert.throws(() => manager.rollback("echoer", "9.9.9"), /known versions: 1.0.0, 2.0.0/);
    manager.install(fixture.source("echoer", echoPlugin("echoer", "`v3`")));
    fixture.system.api.reject("echoer");
    assert.ok(fixture.system.api.list().some((row) => row.status === "failed"));
    manager.remove("echoer");
    assert.deepEqual(fixture.system.api.list(), []);
    assert.equal(fixture.records.latestApproval("echoer"), undefined);
  } finally {
    await fixture.close();
  }
});

Deno.test("parseArgumentsText is the entry of plugin tool arguments too", () => {
  assert.deepEqual(parseArgumentsText('{"text":"a"}'), { ok: true, value: { text: "a" } });
});

Deno.test("plugin show warns when a granted public name resolves to a private address", async () => {
  const fixture = pluginFixture();
  try {
    const files = echoPlugin("rebinder");
    files["manifest.yaml"] = files["manifest.yaml"].replace(
      "trust_level: sandbox",
      'trust_level: local\npermissions:\n  net: ["feeds.example.com:443", "nas.lan:80"]',
    );
    fixture.system.manager.install(fixture.source("rebinder", files));
    const lookup = (host: string) =>
      Promise.resolve(
        host === "feeds.example.com" ? ["93.184.215.14", "192.168.1.7"] : ["10.0.0.2"],
      );
    const api = createPluginApi(
      fixture.system.manager,
      fixture.records,
      () => Promise.resolve(),
      lookup,
    );
    assert.deepEqual(await api.networkWarnings("rebinder"), [
      "WARNING: feeds.example.com resolves to 192.168.1.7, a private address; grant the address itself if that is intended",
    ]);
    const warnings = api.details("rebinder").warnings.join("\n");
    assert.match(warnings, /nas\.lan:80 is on this machine or your local network/);
    assert.match(warnings, /refused \(when the plugin starts/);
  } finally {
    await fixture.close();
  }
});

Deno.test("plugin show warns about links that lead out of a granted folder", async () => {
  const fixture = pluginFixture();
  const outside = Deno.makeTempDirSync({ prefix: "radar-links-" });
  try {
    const notes = join(outside, "notes");
    Deno.mkdirSync(join(notes, "deep"), { recursive: true });
    Deno.mkdirSync(join(outside, "keys"));
    Deno.symlinkSync(join(outside, "keys"), join(notes, "deep", "keys"));
    Deno.symlinkSync(join(notes, "deep"), join(notes, "inner"));
    Deno.symlinkSync(join(outside, "gone"), join(notes, "dangling"));
    const files = echoPlugin("linked");
    files["manifest.yaml"] = files["manifest.yaml"].replace(
      "trust_level: sandbox",
      `trust_level: local\npermissions:\n  read: ["${notes}"]`,
    );
    fixture.system.manager.install(fixture.source("linked", files));
    const warnings = fixture.system.api.details("linked").warnings.filter((line) =>
      line.includes("links to")
    );
    assert.deepEqual(warnings, [
      `WARNING: ${join(notes, "deep", "keys")} links to ${
        Deno.realPathSync(join(outside, "keys"))
      }, outside the grant: the plugin can follow it`,
    ]);
  } finally {
    await fixture.close();
    Deno.removeSync(outside, { recursive: true });
  }
});
