/**
 * Why pdf_extract uses a subprocess and not a Web Worker: on Deno 2.9.6 `worker.terminate()`
 * returns at once but does not stop a worker stuck in a WASM loop (MuPDF is WASM); the thread
 * keeps spinning a core and the process cannot exit. If this starts failing after a Deno upgrade,
 * a worker with a deadline may be enough (and cheaper) for src/adapters/pdf/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

/** (module (func (export "spin") (loop (br 0)))) */
const spinWasm = [
  0,
  0x61,
  0x73,
  0x6d,
  1,
  0,
  0,
  0,
  1,
  4,
  1,
  0x60,
  0,
  0,
  3,
  2,
  1,
  0,
  7,
  8,
  1,
  4,
  0x73,
  0x70,
  0x69,
  0x6e,
  0,
  0,
  0x0a,
  9,
  1,
  7,
  0,
  3,
  0x40,
  0x0c,
  0,
  0x0b,
  0x0b,
];

Deno.test("fact: worker.terminate() does not stop a worker spinning in WASM", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-wasm-fact-" });
  try {
    const script = join(dir, "main.js");
    const worker = `const module = new WebAssembly.Module(new Uint8Array(${
      JSON.stringify(spinWasm)
    })); const instance = new WebAssembly.Instance(module); postMessage(1); instance.exports.spin();`;
    Deno.writeTextFileSync(
      script,
      `const worker = new Worker("data:application/javascript," + encodeURIComponent(${
        JSON.stringify(worker)
      }), { type: "module" });
       worker.onmessage = () => { worker.terminate(); console.log("terminated"); };`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-config", "--no-prompt", script],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
    const output = await child.output();
    clearTimeout(timer);
    assert.equal(new TextDecoder().decode(output.stdout).trim(), "terminated");
    assert.equal(
      output.signal,
      "SIGKILL",
      "the process had to be killed: the worker kept spinning",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
