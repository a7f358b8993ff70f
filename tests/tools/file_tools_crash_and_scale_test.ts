/** The file tools under a crash mid-write, big appends and folders with many entries. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listDirectoryTool } from "../../src/tools/list_directory.ts";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { call, tempHome, toolDeps, writableHome } from "./tool_harness.ts";

const writeFileModule = new URL("../../src/adapters/os/file_changes.ts", import.meta.url).href;

Deno.test("a process killed in the middle of an atomic write leaves the old file intact", async () => {
  const home = tempHome();
  const target = join(home.home, "report.txt");
  Deno.writeTextFileSync(target, "old contents");
  // The child appends: it copies stdin (the "old part") into the temp file and blocks there,
  // because stdin stays open. We kill it while the temp file is half written.
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { writeAtomically } from "${writeFileModule}";
       await writeAtomically(${JSON.stringify(target)}, new Uint8Array(10), undefined,
         Deno.stdin as unknown as Deno.FsFile);`,
    ],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode("half of the new conten"));
    let temp: string | undefined;
    for (let attempt = 0; attempt < 200 && !temp; attempt++) {
      temp = [...Deno.readDirSync(home.home)].map((entry) => entry.name)
        .find((name) => name.startsWith(".report.txt.") && name.endsWith(".tmp"));
      if (!temp) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(temp, "the child started writing its temp file");
    for (let attempt = 0; attempt < 200; attempt++) {
      if (Deno.statSync(join(home.home, temp)).size > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill("SIGKILL");
    await child.status;
    assert.equal(Deno.readTextFileSync(target), "old contents");
    assert.equal(Deno.readTextFileSync(join(home.home, temp)), "half of the new conten");
  } finally {
    await writer.close().catch(() => {});
    home.dispose();
  }
});

Deno.test("write_file appends to a large file by streaming and leaves no temp files", async () => {
  const home = tempHome();
  try {
    const big = join(home.home, "big.log");
    const line = "0123456789abcdef".repeat(64) + "\n";
    Deno.writeTextFileSync(big, line.repeat(20_000)); // about 20 MB
    const tool = writeFileTool(toolDeps(home, writableHome));
    const result = await call(tool, { path: "~/big.log", content: "tail\n", append: true });
    assert.equal(result.outcome, "ok");
    assert.match(result.text, /^Appended to ~\/big\.log \(20500005 bytes\)\.$/);
    const file = await Deno.open(big);
    await file.seek(-10, Deno.SeekMode.End);
    const end = new Uint8Array(10);
    await file.read(end);
    file.close();
    assert.equal(new TextDecoder().decode(end), "abcdef\ntail\n".slice(-10));
    assert.deepEqual(
      [...Deno.readDirSync(home.home)].map((entry) => entry.name).filter((n) => n.endsWith(".tmp")),
      [],
    );
  } finally {
    home.dispose();
  }
});

Deno.test("list_directory finds every match in a folder with 20 000 entries", async () => {
  const home = tempHome();
  try {
    const folder = join(home.home, "Downloads");
    Deno.mkdirSync(folder);
    for (let index = 0; index < 20_000; index++) {
      const name = index % 1000 === 999 ? `scan-${index}.pdf` : `file-${index}.txt`;
      Deno.writeFileSync(join(folder, name), new Uint8Array());
    }
    const tool = listDirectoryTool(toolDeps(home));
    const started = performance.now();
    const result = await call(tool, { path: "~/Downloads", pattern: "*.pdf" });
    const elapsed = performance.now() - started;
    assert.match(result.text, /^~\/Downloads: 20 matching \*\.pdf$/m);
    assert.equal(result.text.split("\n").filter((line) => /^f .*\.pdf$/.test(line)).length, 20);
    assert.ok(elapsed < 5000, `${Math.round(elapsed)} ms`);
    const all = await call(tool, { path: "~/Downloads" });
    assert.match(all.text, /^~\/Downloads: 20000 entries\n/);
    assert.match(all.text, /\[19800 more not shown\]$/);
  } finally {
    home.dispose();
  }
});
