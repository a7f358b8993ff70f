import assert from "node:assert/strict";
import { join } from "node:path";
import { pdfDate, pdfExtractTool, selectPages } from "../../src/tools/pdf_extract.ts";
import { buildPdf, handWrittenPdf, nestedFormsPdf } from "../helpers/pdf_factory.ts";
import type { PdfReader, PdfReadRequest } from "../../src/library/pdf_reader.ts";
import { askContext, call, tempHome, toolDeps } from "./tool_harness.ts";

Deno.test("pdf_extract returns page count, metadata and the first and last pages' text", async () => {
  const home = tempHome();
  try {
    const pages = Array.from({ length: 6 }, (_, index) => ({ text: `Page number ${index + 1}` }));
    Deno.writeFileSync(
      join(home.home, "report.pdf"),
      buildPdf(pages, { title: "Quarterly Report", author: "ACME" }),
    );
    const tool = pdfExtractTool(toolDeps(home));
    const result = await call(tool, { path: "~/report.pdf" });
    assert.equal(result.outcome, "ok");
    assert.equal(
      result.text,
      [
        "~/report.pdf: 6 pages, PDF 1.7",
        "Title: Quarterly Report; Author: ACME",
        "--- page 1 ---",
        "Page number 1",
        "--- page 2 ---",
        "Page number 2",
        "--- page 6 ---",
        "Page number 6",
        "[3 other pages not extracted; use first/last for more]",
      ].join("\n"),
    );
    const one = await call(tool, { path: "~/report.pdf", first: 1, last: 0 });
    assert.match(one.text, /--- page 1 ---\nPage number 1\n\[5 other pages/);
  } finally {
    home.dispose();
  }
});

Deno.test("pdf_extract reads a hand-written PDF and reports image-only pages", async () => {
  const home = tempHome();
  try {
    Deno.writeFileSync(join(home.home, "hand.pdf"), handWrittenPdf("Hello from a hand-made PDF"));
    Deno.writeFileSync(join(home.home, "scan.pdf"), buildPdf([{ image: true }, { text: "Back" }]));
    const tool = pdfExtractTool(toolDeps(home));
    assert.match(
      (await call(tool, { path: "hand.pdf" })).text,
      /1 page, PDF 1\.4\n--- page 1 ---\nHello from a hand-made PDF$/,
    );
    const scan = await call(tool, { path: "scan.pdf" });
    assert.match(
      scan.text,
      /--- page 1 ---\n\[image-only page: no text layer; configuring llm\.models\.vision \(a vision model\) would read it\]\n--- page 2 ---\nBack/,
    );
  } finally {
    home.dispose();
  }
});

Deno.test("pdf_extract gives clear errors for encrypted, broken and non-PDF files", async () => {
  const home = tempHome();
  try {
    const tool = pdfExtractTool(toolDeps(home));
    Deno.writeFileSync(
      join(home.home, "locked.pdf"),
      buildPdf([{ text: "secret" }], { password: "pw" }),
    );
    Deno.writeTextFileSync(join(home.home, "broken.pdf"), "%PDF-1.4\nthis is not a pdf body\n");
    Deno.writeTextFileSync(join(home.home, "notes.pdf"), "just text");
    let result = await call(tool, { path: "locked.pdf" });
    assert.equal(result.outcome, "error");
    assert.equal(
      result.text,
      "~/locked.pdf is encrypted (password-protected); its text cannot be read.",
    );
    result = await call(tool, { path: "broken.pdf" });
    assert.equal(result.outcome, "error");
    assert.match(result.text, /^~\/broken\.pdf is a broken PDF: /);
    assert.match((await call(tool, { path: "notes.pdf" })).text, /is not a PDF \(no %PDF header\)/);
    assert.match((await call(tool, { path: "missing.pdf" })).text, /no such file/);
    Deno.mkdirSync(join(home.home, ".ssh"));
    assert.equal((await call(tool, { path: "~/.ssh/x.pdf" })).outcome, "refused");
  } finally {
    home.dispose();
  }
});

Deno.test("pdf_extract stops a PDF that makes MuPDF churn, within the deadline, without blocking", async () => {
  const home = tempHome();
  try {
    // 10^12 nested drawing operations: in-process, this blocked the event loop for hours.
    Deno.writeFileSync(join(home.home, "laughs.pdf"), nestedFormsPdf(12, 10));
    Deno.writeFileSync(join(home.home, "fine.pdf"), buildPdf([{ text: "Still fine" }]));
    const tool = pdfExtractTool(toolDeps(home, (config) => config.tools.pdf.timeout_seconds = 1));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 100);
    const started = performance.now();
    const result = await call(tool, { path: "laughs.pdf", first: 1, last: 0 });
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    assert.equal(result.outcome, "timeout");
    assert.equal(
      result.text,
      "Reading ~/laughs.pdf took longer than 1 s and was stopped (tools.pdf.timeout_seconds); the PDF may be malformed or hostile.",
    );
    assert.ok(elapsed >= 900 && elapsed < 3500, `took ${elapsed} ms`);
    assert.ok(ticks >= 7, `the event loop was blocked: ${ticks} ticks in ${elapsed} ms`);
    // The next PDF still reads: nothing was left blocked. (Its own deadline is the default one: a
    // fresh subprocess alone can take over 1 s to start on a loaded machine.)
    const next = pdfExtractTool(toolDeps(home));
    assert.match((await call(next, { path: "fine.pdf" })).text, /--- page 1 ---\nStill fine$/);
  } finally {
    home.dispose();
  }
});

Deno.test("pdf_extract hands the reader its options and the run's abort signal, and maps failures", async () => {
  const home = tempHome();
  try {
    Deno.writeFileSync(join(home.home, "a.pdf"), handWrittenPdf("x"));
    const seen: PdfReadRequest[] = [];
    let answer: Awaited<ReturnType<PdfReader["read"]>> = { status: "failed", message: "no memory" };
    const pdfReader: PdfReader = {
      read: (request) => {
        seen.push(request);
        return Promise.resolve(answer);
      },
    };
    const tool = pdfExtractTool(toolDeps(home, () => {}, { pdfReader }));
    const controller = new AbortController();
    let result = await call(tool, { path: "a.pdf", first: 3 }, askContext(controller.signal));
    assert.deepEqual(result, { outcome: "error", text: "Cannot read ~/a.pdf: no memory." });
    assert.equal(seen[0].first, 3);
    assert.equal(seen[0].last, 1);
    assert.equal(seen[0].maxPageChars, 4000);
    assert.equal(seen[0].signal, controller.signal);
    assert.equal(new TextDecoder().decode(seen[0].bytes.subarray(0, 8)), "%PDF-1.4");
    answer = {
      status: "ok",
      contents: {
        pageCount: 3,
        format: "PDF 1.4",
        metadata: { Title: "T", CreationDate: "D:20260102" },
        pages: [
          { number: 1, text: "abcd", cutChars: 96, images: 0 },
          { number: 2, text: "", cutChars: 0, images: 0, error: "bad font" },
          { number: 3, text: "", cutChars: 0, images: 0 },
        ],
      },
    };
    result = await call(tool, { path: "a.pdf" });
    assert.equal(
      result.text,
      [
        "~/a.pdf: 3 pages, PDF 1.4",
        "Title: T; Created: 2026-01-02",
        "--- page 1 ---",
        "abcd",
        "[page cut: 96 more characters]",
        "--- page 2 ---",
        "[page cannot be read: bad font]",
        "--- page 3 ---",
        "[blank page]",
      ].join("\n"),
    );
  } finally {
    home.dispose();
  }
});

Deno.test("selectPages() and pdfDate() handle edges", () => {
  assert.deepEqual(selectPages(3, 2, 2), [0, 1, 2]);
  assert.deepEqual(selectPages(10, 0, 1), [9]);
  assert.deepEqual(selectPages(0, 2, 1), []);
  assert.equal(pdfDate("D:20261122091500Z"), "2026-11-22 09:15");
  assert.equal(pdfDate("D:2026"), "2026-01-01");
  assert.equal(pdfDate("garbage"), undefined);
});

Deno.test("MuPDF is imported lazily: no source file imports it statically", () => {
  const root = new URL("../../src/", import.meta.url);
  const walk = (folder: URL): string[] =>
    [...Deno.readDirSync(folder)].flatMap((entry) =>
      entry.isDirectory
        ? walk(new URL(`${entry.name}/`, folder))
        : entry.name.endsWith(".ts")
        ? [Deno.readTextFileSync(new URL(entry.name, folder))]
        : []
    );
  const sources = walk(root);
  assert.ok(sources.length > 20);
  for (const text of sources) assert.doesNotMatch(text, /^\s*import [^(]*from\s+"mupdf"/m);
});
