/**
 * The compiled binary's plugin-host mode, simulated: `main.ts --radar-plugin-host` run with exactly
 * the flags `deno task radar` (and so `deno task compile`) bakes in, which are broad. The host must
 * revoke what the grant does not use before plugin code loads, and the worker's grant must hold.
 * (`deno compile` itself needs a download this machine cannot make.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { flagsOfTask } from "../../scripts/task_flags.ts";
import { fromFileUrl } from "../project/file_url.ts";
import { emptyGrant, type PluginGrant } from "../../src/sandbox/permissions.ts";
import { PluginProcess } from "../../src/sandbox/plugin_process.ts";
import { inlineCode } from "./helpers.ts";

const deno = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
const mainPath = fromFileUrl(new URL("../../main.ts", import.meta.url));
const configPath = fromFileUrl(new URL("../../deno.json", import.meta.url));

const probe = inlineCode(
  "probe",
  `export function read(args: { path: string }): string { return Deno.readTextFileSync(args.path); }
   export function write(args: { path: string }): string { Deno.writeTextFileSync(args.path, "x"); return "wrote"; }
   export function env(): string { return Deno.env.get("HOME") ?? "none"; }
   export function spawn(): string { new Deno.Command("/bin/sh", { args: ["-c", "true"] }).outputSync(); return "spawned"; }
   export function sys(): string { return Deno.hostname(); }
   export async function connect(args: { port: number }): Promise<string> {
     (await Deno.connect({ hostname: "127.0.0.1", port: args.port })).close();
     return "connected";
   }`,
  ["read", "write", "env", "spawn", "sys", "connect"],
);

function binaryHost(wrapper: string, grant: PluginGrant): PluginProcess {
  return new PluginProcess({
    code: probe,
    grant,
    callTimeoutMs: 5000,
    memoryMb: 64,
    idleMs: 60_000,
    maxResultChars: 16_000,
    env: Deno.env.toObject(),
    standalone: true,
    execPath: wrapper,
  });
}

Deno.test("in the compiled binary's host mode a plugin gets its grant and nothing of the binary's flags", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-standalone-" });
  const allowed = join(dir, "allowed");
  Deno.mkdirSync(allowed);
  Deno.writeTextFileSync(join(allowed, "note.txt"), "NOTE");
  Deno.writeTextFileSync(join(dir, "secret.txt"), "TOP-SECRET");
  const wrapper = join(dir, "radar");
  const flags = flagsOfTask(deno.tasks.radar);
  Deno.writeTextFileSync(
    wrapper,
    // The binary embeds deno.json's import map; main.ts imports the CLI (and npm packages) statically.
    `#!/bin/sh\nexec "${Deno.execPath()}" run --quiet --config "${configPath}" ${
      flags.join(" ")
    } "${mainPath}" "$@"\n`,
  );
  Deno.chmodSync(wrapper, 0o755);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("x"),
  );
  const sandboxed = binaryHost(wrapper, emptyGrant);
  const reader = binaryHost(wrapper, { ...emptyGrant, read: [allowed] });
  try {
    assert.ok(flags.includes("--allow-read") && flags.includes("--allow-run"));
    const refused = async (process: PluginProcess, name: string, args = {}) => {
      const result = await process.call(name, args);
      assert.equal(result.outcome, "error", `${name}: ${result.text}`);
      assert.match(result.text, /Requires \w+ access|NotCapable/, `${name}: ${result.text}`);
      assert.doesNotMatch(result.text, /TOP-SECRET/);
    };
    await refused(sandboxed, "read", { path: join(dir, "secret.txt") });
    await refused(sandboxed, "read", { path: join(allowed, "note.txt") });
    await refused(sandboxed, "write", { path: join(allowed, "new.txt") });
    await refused(sandboxed, "env");
    await refused(sandboxed, "spawn");
    await refused(sandboxed, "sys");
    await refused(sandboxed, "connect", { port: server.addr.port });
    assert.deepEqual(await reader.call("read", { path: join(allowed, "note.txt") }), {
      outcome: "ok",
      text: "NOTE",
    });
    await refused(reader, "read", { path: join(dir, "secret.txt") });
    await refused(reader, "write", { path: join(allowed, "new.txt") });
    await refused(reader, "spawn");
    assert.ok(sandboxed.starts === 1 && reader.starts === 1, "no respawns");
  } finally {
    await sandboxed.stop();
    await reader.stop();
    await server.shutdown();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("dropPermissions() under the binary's broad flags revokes every kind the grant does not use", async () => {
  // Measured: revoking one path (the bootstrap) under a global read grant is a no-op, so the
  // worker's own permission set, not the host process's, is what confines plugin code there.
  const dir = Deno.makeTempDirSync({ prefix: "radar-revoke-" });
  const hostModule = new URL("../../src/sandbox/host_process.ts", import.meta.url).href;
  const script = join(dir, "probe.ts");
  Deno.writeTextFileSync(
    script,
    `import { dropPermissions } from "${hostModule}";
     await dropPermissions({ read: ["${dir}"], write: [], net: ["example.com:443"], env: [] });
     const bootstrap = new URL("./bootstrap.ts", "${hostModule}");
     const states: Record<string, string> = {};
     for (const name of ["run", "ffi", "sys", "write", "env", "net", "read"] as const) {
       states[name] = (await Deno.permissions.query({ name } as Deno.PermissionDescriptor)).state;
     }
     states.bootstrap = (await Deno.permissions.query({ name: "read", path: bootstrap })).state;
     console.log(JSON.stringify(states));`,
  );
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-config", ...flagsOfTask(deno.tasks.radar), script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), {
      run: "prompt",
      ffi: "prompt",
      sys: "prompt",
      write: "prompt",
      env: "prompt",
      net: "granted",
      read: "granted",
      bootstrap: "granted",
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
