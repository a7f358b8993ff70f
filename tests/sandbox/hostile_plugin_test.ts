/**
 * The adversarial suite: a hostile plugin (tests/fixtures/plugins/hostile) tries every escape it
 * can think of through real plugin host processes. Each attempt must end as a clean result, and
 * the next call (to it and to a good plugin) must work.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixturePath, inlineCode, loadCode, startProcess } from "./helpers.ts";

const code = loadCode(fixturePath("hostile"));
const good = inlineCode(
  "good",
  "export function echo(args: { text: string }): string { return `echo ${args.text}`; }",
  ["echo"],
);

Deno.test("a hostile sandbox plugin is contained and the host keeps serving", async (t) => {
  const secretDir = Deno.makeTempDirSync({ prefix: "radar-ssh-" });
  const secret = join(secretDir, "id_ed25519");
  Deno.writeTextFileSync(secret, "PRIVATE KEY");
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("internal secret"),
  );
  const hostile = startProcess(code, undefined, { callTimeoutMs: 2500, maxResultChars: 4000 });
  const goodProcess = startProcess(good);
  const stillServing = async () => {
    assert.deepEqual(await goodProcess.call("echo", { text: "hi" }), {
      outcome: "ok",
      text: "echo hi",
    });
    assert.equal((await hostile.call("cwd", {})).outcome, "ok");
  };
  const refused = async (name: string, args: Record<string, unknown>, pattern: RegExp) => {
    const result = await hostile.call(name, args);
    assert.equal(result.outcome, "error", `${name}: ${result.text}`);
    assert.match(result.text, pattern, name);
    assert.doesNotMatch(result.text, /PRIVATE KEY|internal secret/);
  };
  try {
    await t.step(
      "reading a secret file is refused",
      () => refused("read_file", { path: secret }, /Requires read access/),
    );
    await t.step(
      "reading /proc is refused",
      () => refused("read_file", { path: "/proc/self/environ" }, /Requires read access/),
    );
    await t.step(
      "`..` paths are refused",
      () =>
        refused(
          "read_file",
          { path: `${secretDir}/../${secretDir.split("/").at(-1)}/id_ed25519` },
          /Requires read access/,
        ),
    );
    await t.step(
      "importing a secret as text (import attributes) is refused",
      () => refused("import_text", { path: secret }, /Requires read access/),
    );
    await t.step(
      "writing is refused",
      () => refused("write_file", { path: join(secretDir, "pwned") }, /Requires write access/),
    );
    await t.step("127.0.0.1 by fetch and by TCP is refused", async () => {
      await refused("fetch_url", { url: `http://127.0.0.1:${server.addr.port}/` }, /net access/);
      await refused("connect", { port: server.addr.port }, /net access/);
      await refused("fetch_url", { url: "http://192.168.1.1/" }, /net access/);
    });
    await t.step("spawning a process is refused", () => refused("spawn", {}, /run access/));
    await t.step("ffi is refused", () => refused("ffi", {}, /ffi access/));
    await t.step("the environment is unreadable", async () => {
      await refused("env_read", {}, /env access/);
      await refused("env_dump", {}, /env access/);
    });
    await t.step("system information is refused", () => refused("sys_info", {}, /sys access/));
    await t.step("npm: imports are refused", () => refused("import_npm", {}, /npm/));
    await t.step("remote imports are refused", () => refused("import_remote", {}, /import access/));
    await t.step(
      "signalling the parent is refused",
      () => refused("kill_parent", { pid: Deno.pid }, /not available to a plugin/),
    );
    await t.step("chdir is refused and the scratch directory stays", async () => {
      const cwdBefore = Deno.cwd();
      await refused("chdir", {}, /read access/);
      assert.equal(Deno.cwd(), cwdBefore);
      assert.match((await hostile.call("cwd", {})).text, /radar-plugin-/);
    });
    await t.step("a permission request does not prompt", async () => {
      assert.deepEqual(await hostile.call("prompt", {}), { outcome: "ok", text: "denied" });
    });
    await t.step(
      "a thrown error becomes an error result",
      () => refused("throws", {}, /plugin exploded/),
    );
    await t.step("stdin and stdout are out of reach; forged frames are ignored", async () => {
      assert.deepEqual(await hostile.call("stdout_forge", {}), {
        outcome: "ok",
        text: "stdout gone",
      });
      assert.deepEqual(await hostile.call("stdin_theft", {}), {
        outcome: "ok",
        text: "stdin gone",
      });
    });
    await t.step("prototype pollution and forged worker messages change nothing", async () => {
      // Its prototypes are its own; the worker's postMessage is not there to forge with.
      assert.match((await hostile.call("pollute", {})).text, /postMessage is not available/);
      assert.deepEqual(await hostile.call("huge_output", { chars: 3 }), {
        outcome: "ok",
        text: "xxx",
      });
    });
    await t.step("terminal escape sequences are stripped", async () => {
      assert.equal((await hostile.call("escape_sequences", {})).text, "red done");
    });
    await stillServing();
    const startsBefore = hostile.starts;
    await t.step("an infinite loop times out and the host is respawned", async () => {
      const result = await hostile.call("infinite_loop", {});
      assert.equal(result.outcome, "timeout");
      await stillServing();
      assert.equal(hostile.starts, startsBefore + 1);
    });
    await t.step("a promise that never resolves times out", async () => {
      assert.equal((await hostile.call("never_resolves", {})).outcome, "timeout");
    });
    await t.step("a plugin cannot swallow SIGTERM: signal listeners are refused", async () => {
      const result = await hostile.call("swallow_sigterm", {});
      assert.equal(result.outcome, "error");
      assert.match(result.text, /not available to a plugin/);
      await stillServing();
    });
    await t.step(
      "Deno.kill of its own host is refused (worker_surface_test.ts has more)",
      async () => {
        const result = await hostile.call("kill_self", {});
        assert.equal(result.outcome, "error");
        assert.match(result.text, /not available to a plugin/);
        await stillServing();
      },
    );
    await t.step("a heap bomb ends only its host", async () => {
      const result = await hostile.call("heap_bomb", {});
      assert.notEqual(result.outcome, "ok");
      await stillServing();
    });
    await t.step("an ArrayBuffer bomb is stopped by the OS limit or the deadline", async () => {
      const result = await hostile.call("buffer_bomb", {});
      assert.notEqual(result.outcome, "ok", result.text);
      await stillServing();
    });
    await t.step("a worker bomb ends only its host", async () => {
      const result = await hostile.call("worker_bomb", {});
      assert.notEqual(result.outcome, "ok", result.text);
      await stillServing();
    });
    await t.step("an oversized result is cut off", async () => {
      const result = await hostile.call("huge_output", { chars: 1_000_000 });
      assert.equal(result.outcome, "error");
      assert.match(result.text, /more than \d+ characters/);
      await stillServing();
    });
    await t.step("a message flood is contained", async () => {
      assert.notEqual((await hostile.call("message_flood", {})).outcome, "ok");
      await stillServing();
    });
  } finally {
    await hostile.stop();
    await goodProcess.stop();
    await server.shutdown();
    Deno.removeSync(secretDir, { recursive: true });
  }
});

Deno.test("a secret imported statically by plugin code is refused at load time", async () => {
  const dir = Deno.makeTempDirSync();
  const secret = join(dir, "secret.txt");
  Deno.writeTextFileSync(secret, "TOP-SECRET");
  const process = startProcess(inlineCode(
    "static_secret",
    `import secret from "file://${secret}" with { type: "text" };\nexport function leak(): string { return secret; }`,
    ["leak"],
  ));
  try {
    const result = await process.call("leak", {});
    assert.equal(result.outcome, "error");
    assert.match(result.text, /failed to load: .*Requires read access/);
    assert.doesNotMatch(result.text, /TOP-SECRET/);
  } finally {
    await process.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("Deno.exit inside a plugin ends in a timeout, not a hang of Radar", async () => {
  const process = startProcess(code, undefined, { callTimeoutMs: 1500 });
  try {
    assert.equal((await process.call("exit", {})).outcome, "timeout");
    assert.equal((await process.call("cwd", {})).outcome, "ok");
  } finally {
    await process.stop();
  }
});
