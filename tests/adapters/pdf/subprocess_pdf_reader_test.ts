import assert from "node:assert/strict";
import { join } from "node:path";
import { SubprocessPdfReader } from "../../../src/adapters/pdf/subprocess_pdf_reader.ts";
import { pdfExtractFlag } from "../../../src/adapters/pdf/pdf_flag.ts";
import { denoDirOf } from "../../../src/adapters/os/deno_child.ts";
import {
  pdfProcessCommand,
  pdfProcessEnvironment,
} from "../../../src/adapters/pdf/pdf_process_command.ts";
import { isProcessAlive } from "../../../src/adapters/os/process.ts";
import type { PdfReadRequest } from "../../../src/library/pdf_reader.ts";
import { flagsOfTask } from "../../../scripts/task_flags.ts";
import { buildPdf, glyphFloodPdf } from "../../helpers/pdf_factory.ts";
import { needing, onLinux } from "../../helpers/system_parts.ts";

const env = Deno.env.toObject();

function request(bytes: Uint8Array, extra: Partial<PdfReadRequest> = {}): PdfReadRequest {
  return { bytes, first: 2, last: 1, maxPageChars: 4000, ...extra };
}

/** A subprocess that records its PID, then spins forever (what a hostile PDF can do to MuPDF). */
function spinningCommand(pidFile: string) {
  return {
    command: Deno.execPath(),
    args: [
      "eval",
      `Deno.writeTextFileSync(${JSON.stringify(pidFile)}, String(Deno.pid)); while (true) {}`,
    ],
  };
}

Deno.test("the subprocess reader extracts pages, metadata and cut text from a real PDF", async () => {
  const reader = new SubprocessPdfReader({ timeoutMs: 20_000, env });
  const pages = Array.from({ length: 5 }, (_, index) => ({ text: `Page ${index + 1}` }));
  const result = await reader.read(
    request(buildPdf(pages, { title: "Report" }), { maxPageChars: 4 }),
  );
  assert.equal(result.status, "ok");
  if (result.status !== "ok") return;
  assert.equal(result.contents.pageCount, 5);
  assert.equal(result.contents.format, "PDF 1.7");
  assert.equal(result.contents.metadata.Title, "Report");
  assert.deepEqual(
    result.contents.pages.map((page) => [page.number, page.text, page.cutChars]),
    [[1, "Page", 2], [2, "Page", 2], [5, "Page", 2]],
  );
});

Deno.test("the subprocess reader reports encrypted and broken PDFs", async () => {
  const reader = new SubprocessPdfReader({ timeoutMs: 20_000, env });
  const locked = await reader.read(request(buildPdf([{ text: "x" }], { password: "pw" })));
  assert.deepEqual(locked, { status: "encrypted" });
  const broken = await reader.read(request(new TextEncoder().encode("%PDF-1.4\nnothing here\n")));
  assert.equal(broken.status, "broken");
});

Deno.test("a hanging extraction is SIGKILLed at the deadline while the caller stays responsive", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-pdf-hang-" });
  try {
    const pidFile = join(dir, "pid");
    const reader = new SubprocessPdfReader({
      timeoutMs: 1500,
      env,
      command: spinningCommand(pidFile),
    });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 100);
    const started = performance.now();
    const result = await reader.read(request(buildPdf([{ text: "x" }])));
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    assert.deepEqual(result, { status: "timeout", seconds: 1.5 });
    assert.ok(elapsed >= 1400 && elapsed < 4000, `took ${elapsed} ms`);
    assert.ok(ticks >= 10, `the event loop was blocked: ${ticks} ticks in ${elapsed} ms`);
    const pid = Number(Deno.readTextFileSync(pidFile));
    assert.ok(pid > 0);
    assert.equal(isProcessAlive(pid), false, "the spinning subprocess must be gone");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test(needing([onLinux, "util-linux"], {
  name: "on Linux, MuPDF's memory is capped: a glyph flood fails an allocation instead of growing",
  async fn() {
    // 28 KB of PDF, 10 million glyphs: about 375 MB RSS with 1 GB for MuPDF; here none is left.
    const reader = new SubprocessPdfReader({ timeoutMs: 20_000, env, memoryMb: 0 });
    const result = await reader.read(request(await glyphFloodPdf(10), { first: 1, last: 0 }));
    assert.equal(result.status, "ok");
    if (result.status !== "ok") return;
    assert.match(result.contents.pages[0].error ?? "", /^realloc \(\d+ bytes\) failed$/);
  },
}));

Deno.test("aborting the call kills the subprocess at once", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-pdf-abort-" });
  try {
    const reader = new SubprocessPdfReader({
      timeoutMs: 20_000,
      env,
      command: spinningCommand(join(dir, "pid")),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    const result = await reader.read(request(new Uint8Array(10), { signal: controller.signal }));
    assert.deepEqual(result, { status: "failed", message: "cancelled" });
    assert.ok(performance.now() - started < 3000);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a subprocess that dies or prints garbage is a readable failure", async () => {
  const crash = new SubprocessPdfReader({
    timeoutMs: 10_000,
    env,
    command: {
      command: Deno.execPath(),
      args: ["eval", "console.log('not json'); console.error('boom happened'); Deno.exit(3)"],
    },
  });
  assert.deepEqual(await crash.read(request(new Uint8Array(10))), {
    status: "failed",
    message: "the PDF reader ended (exit code 3: boom happened)",
  });
  const missing = new SubprocessPdfReader({
    timeoutMs: 10_000,
    env,
    command: { command: "/nonexistent/radar-deno", args: [] },
  });
  const result = await missing.read(request(new Uint8Array(10)));
  assert.equal(result.status, "failed");
  assert.match((result as { message: string }).message, /^cannot start the PDF reader: /);
});

Deno.test("main.ts in PDF mode (what the compiled binary runs) extracts with the radar task's flags", async () => {
  const deno = JSON.parse(Deno.readTextFileSync(new URL("../../../deno.json", import.meta.url)));
  const main = new URL("../../../main.ts", import.meta.url).pathname;
  const reader = new SubprocessPdfReader({
    timeoutMs: 20_000,
    env,
    command: {
      command: Deno.execPath(),
      args: ["run", "--quiet", ...flagsOfTask(deno.tasks.radar), main, pdfExtractFlag],
    },
  });
  const result = await reader.read(request(buildPdf([{ text: "From the binary" }])));
  assert.equal(result.status, "ok");
  if (result.status === "ok") assert.equal(result.contents.pages[0].text, "From the binary");
});

Deno.test("pdfProcessCommand: narrowed deno run, the binary's hidden mode, prlimit on Linux", () => {
  const run = pdfProcessCommand({
    standalone: false,
    execPath: "/usr/bin/deno",
    readFolders: ["/cache/mupdf/dist", "/cache/node-unrar-js/2.0.2"],
    memoryMb: 1024,
  });
  assert.equal(run.command, "/usr/bin/deno");
  assert.deepEqual(run.args.filter((arg) => arg.startsWith("--allow")), [
    "--allow-read=/cache/mupdf/dist,/cache/node-unrar-js/2.0.2",
  ]);
  assert.ok(run.args.includes("--no-prompt") && run.args.includes("--cached-only"));
  assert.match(run.args.at(-1)!, /src\/adapters\/pdf\/pdf_extract_process\.ts$/);
  assert.ok(Deno.statSync(run.args.at(-1)!).isFile);
  const binary = pdfProcessCommand({
    standalone: true,
    execPath: "/opt/radar",
    memoryMb: 1024,
    prlimitPath: "/usr/bin/prlimit",
  });
  const bytes = (800 + 1024) * 1024 * 1024;
  assert.deepEqual(binary, {
    command: "/usr/bin/prlimit",
    args: [`--data=${bytes}:${bytes}`, "--", "/opt/radar", pdfExtractFlag],
  });
});

Deno.test("the subprocess environment carries the parent's Deno cache and nothing secret", () => {
  assert.equal(
    denoDirOf("/home/u/.cache/deno/npm/registry.npmjs.org/mupdf/1.28.1/dist/mupdf.js", "mupdf"),
    "/home/u/.cache/deno",
  );
  assert.equal(denoDirOf("/app/node_modules/mupdf/dist/mupdf.js", "mupdf"), undefined);
  assert.equal(
    denoDirOf(
      "/c/npm/registry.npmjs.org/node-html-parser/9.0.7/dist/index.mjs",
      "node-html-parser",
    ),
    "/c",
  );
  assert.equal(denoDirOf("/c/npm/registry.npmjs.org/mupdf/1/x.js", "node-html-parser"), undefined);
  assert.deepEqual(
    pdfProcessEnvironment({ HOME: "/tmp/h", DENO_DIR: "/elsewhere", OPENAI_API_KEY: "sk-x" }, "/c"),
    {
      NO_COLOR: "1",
      DENO_NO_PROMPT: "1",
      DENO_NO_UPDATE_CHECK: "1",
      DENO_V8_FLAGS: "--max-old-space-size=256",
      HOME: "/tmp/h",
      DENO_DIR: "/c",
    },
  );
});

Deno.test("PDF Info is written as an incremental update: the original bytes stay, the new Info reads back", async () => {
  const reader = new SubprocessPdfReader({ timeoutMs: 20_000, env });
  const original = buildPdf([{ text: "Invoice 42" }], { title: "scan0001", author: "HP" });
  const chunks: Uint8Array[] = [];
  const result = await reader.writeInfo({
    input: new Blob([original as BlobPart]).stream(),
    size: original.length,
    changes: { Title: "Acme invoice 2026-11-02", Author: "Acme GmbH", Keywords: "invoice, acme" },
    output: new WritableStream({ write: (chunk) => void chunks.push(chunk) }),
  });
  assert.equal(result.status, "ok", JSON.stringify(result));
  if (result.status !== "ok") return;
  assert.deepEqual(result.before, { Title: "scan0001", Author: "HP" });
  assert.equal(result.after.Title, "Acme invoice 2026-11-02");
  assert.equal(result.after.Keywords, "invoice, acme");
  const written = new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
  assert.equal(written.length, result.bytes);
  assert.deepEqual(written.subarray(0, original.length), original);
  const again = await reader.read(request(written));
  assert.equal(again.status === "ok" && again.contents.metadata.Author, "Acme GmbH");
  const locked = buildPdf([{ text: "x" }], { password: "pw" });
  const refused = await reader.writeInfo({
    input: new Blob([locked as BlobPart]).stream(),
    size: locked.length,
    changes: { Title: "x" },
    output: new WritableStream(),
  });
  assert.deepEqual(refused, { status: "encrypted" });
});
