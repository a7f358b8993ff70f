import assert from "node:assert/strict";
import { join } from "node:path";
import { pdfDate, pdfExtractTool, selectPages } from "../../src/tools/pdf_extract.ts";
import { buildPdf, handWrittenPdf } from "../helpers/pdf_factory.ts";
import { call, tempHome, toolDeps } from "./tool_harness.ts";

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
      /--- page 1 ---\n\[image-only page: no text layer; needs a vision model\]\n--- page 2 ---\nBack/,
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
