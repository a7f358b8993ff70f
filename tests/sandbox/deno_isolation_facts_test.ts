/**
 * Reproduces the Deno 2.9.6 isolation facts the plugin boundary is designed around. Each fact runs
 * in its own `deno run` subprocess. If one of these starts failing after a Deno upgrade, re-read
 * src/sandbox/ before trusting it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

interface Run {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

async function runScript(
  source: string,
  flags: string[],
  options: {
    timeoutMs?: number;
    files?: Record<string, string>;
    prepare?: (dir: string) => void;
  } = {},
): Promise<{ run: Run }> {
  const dir = Deno.makeTempDirSync({ prefix: "radar-fact-" });
  for (const [name, text] of Object.entries(options.files ?? {})) {
    Deno.writeTextFileSync(join(dir, name), text);
  }
  options.prepare?.(dir);
  const script = join(dir, "main.ts");
  Deno.writeTextFileSync(script, source.replaceAll("DIR", dir));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      "--no-prompt",
      "--unstable-worker-options",
      ...flags.map(
        (flag) => flag.replaceAll("DIR", dir),
      ),
      script,
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 10_000);
  const output = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  Deno.removeSync(dir, { recursive: true });
  return {
    run: {
      code: output.code,
      signal: output.signal,
      stdout: decoder.decode(output.stdout).trim(),
      stderr: decoder.decode(output.stderr).trim(),
    },
  };
}

const secretFiles = { "secret.txt": "TOP-SECRET", "entry.ts": "" };

Deno.test("fact: a worker's entry module and its static imports load with the parent's permissions", async () => {
  const { run } = await runScript(
    `const worker = new Worker(new URL("./entry.ts", import.meta.url), { type: "module", deno: { permissions: "none" } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`,
    ["--allow-read=DIR"],
    {
      files: {
        ...secretFiles,
        "entry.ts":
          `import secret from "./secret.txt" with { type: "text" }; self.postMessage(secret);`,
      },
    },
  );
  assert.equal(run.stdout, "TOP-SECRET");
});

Deno.test("fact: code imported from a data: URL after start-up is gated by the worker's permissions", async () => {
  const { run } = await runScript(
    `const worker = new Worker(new URL("./entry.ts", import.meta.url), { type: "module", deno: { permissions: "none" } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`,
    ["--allow-read=DIR"],
    {
      files: {
        ...secretFiles,
        "entry.ts":
          `const code = 'import s from "file://DIR/secret.txt" with { type: "text" }; export default s;';
          import("data:application/typescript," + encodeURIComponent(code))
            .then((m) => self.postMessage(m.default), (e) => self.postMessage("refused: " + e.name));`
            .replaceAll("DIR", "DIR"),
      },
    },
  );
  assert.match(run.stdout, /^refused/);
});

Deno.test('fact: permissions "none" leaves the prompt state (prompts must be disabled)', async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'Deno.permissions.query({ name: "read" }).then((s) => self.postMessage(s.state));'),
       { type: "module", deno: { permissions: "none" } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`,
    ["--allow-read=DIR"],
  );
  assert.equal(run.stdout, "prompt");
});

Deno.test("fact: npm: imports are not gated by worker permissions (--no-npm blocks them)", async () => {
  const source = `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'import(["npm:", "yaml@2.9.1"].join("")).then((m) => self.postMessage(m.stringify({ a: 1 }).trim()), (e) => self.postMessage("refused"));'),
       { type: "module", deno: { permissions: "none" } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`;
  const allowed = await runScript(source, ["--allow-read=DIR"]);
  assert.equal(allowed.run.stdout, "a: 1");
  const blocked = await runScript(source, ["--allow-read=DIR", "--no-npm"]);
  assert.equal(blocked.run.stdout, "refused");
});

Deno.test("fact: worker.terminate() does not stop a CPU-bound worker", async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript,postMessage(1); while (true) {}", { type: "module" });
     worker.onmessage = () => { worker.terminate(); console.log("terminated"); };`,
    [],
    { timeoutMs: 2000 },
  );
  assert.equal(run.stdout, "terminated");
  assert.equal(run.signal, "SIGKILL", "the process had to be killed: the worker kept spinning");
});

Deno.test("fact: an out-of-heap worker aborts the whole process", async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       "const hoard = []; while (true) hoard.push(new Array(1e6).fill('x'));"), { type: "module" });
     worker.onerror = (event) => event.preventDefault();
     setTimeout(() => console.log("survived"), 5000);`,
    ["--v8-flags=--max-old-space-size=32"],
  );
  assert.notEqual(run.stdout, "survived");
  assert.ok(run.signal !== null || run.code !== 0);
});

Deno.test("fact: ArrayBuffer memory is not bounded by the V8 heap limit", async () => {
  const { run } = await runScript(
    `const buffer = new Uint8Array(256 * 1024 * 1024).fill(1); console.log(buffer.length);`,
    ["--v8-flags=--max-old-space-size=32"],
  );
  assert.equal(run.stdout, String(256 * 1024 * 1024));
});

Deno.test("fact: Deno.kill of the own process needs no permission", async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript,Deno.kill(Deno.pid, 'SIGKILL')",
       { type: "module", deno: { permissions: "none" } });
     setTimeout(() => console.log("survived"), 3000);`,
    [],
  );
  assert.equal(run.signal, "SIGKILL");
  assert.equal(run.stdout, "");
});

Deno.test("fact: a signal listener swallows SIGTERM (only SIGKILL is sure)", async () => {
  const dir = Deno.makeTempDirSync();
  const script = join(dir, "main.ts");
  Deno.writeTextFileSync(
    script,
    `Deno.addSignalListener("SIGTERM", () => console.log("ignored"));
     console.log("ready"); setInterval(() => {}, 1000);`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", script],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.match((await reader.read()).value ?? "", /ready/);
  child.kill("SIGTERM");
  assert.match((await reader.read()).value ?? "", /ignored/);
  child.kill("SIGKILL");
  assert.equal((await child.status).signal, "SIGKILL");
  await reader.cancel();
});

Deno.test("fact: an uncaught worker error kills the host unless the host handles it", async () => {
  const source = (handled: boolean) =>
    `const worker = new Worker("data:application/javascript,throw new Error('boom')", { type: "module" });
     ${handled ? "worker.onerror = (event) => event.preventDefault();" : ""}
     setTimeout(() => console.log("survived"), 500);`;
  const unhandled = await runScript(source(false), []);
  assert.notEqual(unhandled.run.code, 0);
  assert.equal(unhandled.run.stdout, "");
  const handled = await runScript(source(true), []);
  assert.equal(handled.run.stdout, "survived");
});

Deno.test("fact: symlinks inside an allowed folder are followed", async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'self.postMessage(Deno.readTextFileSync("DIR/allowed/link"))'),
       { type: "module", deno: { permissions: { read: ["DIR/allowed"] } } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`,
    ["--allow-read=DIR"],
    {
      files: secretFiles,
      prepare: (dir) => {
        Deno.mkdirSync(join(dir, "allowed"));
        Deno.symlinkSync(join(dir, "secret.txt"), join(dir, "allowed", "link"));
      },
    },
  );
  assert.equal(run.stdout, "TOP-SECRET");
});

Deno.test("fact: Deno.chdir in a worker moves the host's working directory", async () => {
  const { run } = await runScript(
    `Deno.mkdirSync("DIR/elsewhere");
     const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'Deno.chdir("DIR/elsewhere"); self.postMessage("moved")'),
       { type: "module", deno: { permissions: { read: ["DIR"] } } });
     worker.onmessage = () => { console.log(Deno.cwd()); worker.terminate(); };`,
    ["--allow-read=DIR", "--allow-write=DIR"],
  );
  assert.match(run.stdout, /elsewhere$/);
});

Deno.test("fact: network allowlists match host names, not addresses", async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'Deno.connect({ hostname: "localhost", port: 9 }).then(() => self.postMessage("connected"), (e) => self.postMessage(e.name))'),
       { type: "module", deno: { permissions: { net: ["127.0.0.1:9"] } } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`,
    ["--allow-net"],
  );
  assert.equal(run.stdout, "NotCapable");
});

Deno.test("fact: worker permissions need --unstable-worker-options", async () => {
  const dir = Deno.makeTempDirSync();
  const script = join(dir, "main.ts");
  Deno.writeTextFileSync(
    script,
    `new Worker("data:application/javascript,1", { type: "module", deno: { permissions: "none" } });`,
  );
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", script],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.notEqual(output.code, 0);
  assert.match(new TextDecoder().decode(output.stderr), /--unstable-worker-options/);
});

Deno.test("fact: --deny-net takes IPv4 CIDRs, is checked after DNS and binds workers", async () => {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("x"),
  );
  const port = server.addr.port;
  const worker = (net: string) =>
    `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'Deno.connect({ hostname: "localhost", port: ${port} }).then((c) => { c.close(); self.postMessage("connected"); }, (e) => self.postMessage(e.name))'),
       { type: "module", deno: { permissions: { net: ["${net}"] } } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`;
  try {
    const open = await runScript(worker(`localhost:${port}`), [`--allow-net=localhost:${port}`]);
    assert.equal(open.run.stdout, "connected");
    const denied = await runScript(worker(`localhost:${port}`), [
      `--allow-net=localhost:${port}`,
      "--deny-net=127.0.0.0/8,[::1]",
    ]);
    assert.equal(denied.run.stdout, "NotCapable");
    const v6 = await runScript("console.log('ran')", ["--allow-net", "--deny-net=[fc00::]/7"]);
    assert.notEqual(v6.run.code, 0, "IPv6 CIDRs are not accepted");
  } finally {
    await server.shutdown();
  }
});

Deno.test("fact: revoking one host or path under a global grant changes nothing", async () => {
  const { run } = await runScript(
    `await Deno.permissions.revoke({ name: "net", host: "127.0.0.1" });
     await Deno.permissions.revoke({ name: "read", path: "DIR" });
     const net = await Deno.permissions.query({ name: "net", host: "127.0.0.1" });
     const read = await Deno.permissions.query({ name: "read", path: "DIR" });
     console.log(net.state, read.state);`,
    ["--allow-net", "--allow-read"],
  );
  assert.equal(run.stdout, "granted granted");
});

Deno.test("fact: a plugin cannot create a symlink with path-scoped grants", async () => {
  const { run } = await runScript(
    `const worker = new Worker("data:application/javascript," + encodeURIComponent(
       'try { Deno.symlinkSync("DIR/secret.txt", "DIR/w/link"); self.postMessage("linked"); } catch (e) { self.postMessage(e.name); }'),
       { type: "module", deno: { permissions: { read: ["DIR/w"], write: ["DIR/w"] } } });
     worker.onmessage = (event) => { console.log(event.data); worker.terminate(); };`,
    ["--allow-read=DIR", "--allow-write=DIR"],
    { files: secretFiles, prepare: (dir) => Deno.mkdirSync(join(dir, "w")) },
  );
  assert.equal(run.stdout, "NotCapable");
});
