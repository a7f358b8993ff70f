import assert from "node:assert/strict";
import { join } from "node:path";
import { createRoleModel } from "../../src/adapters/llm/create_chat_model.ts";
import { sleep } from "../../src/adapters/clock.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { pdfExtractTool } from "../../src/tools/pdf_extract.ts";
import { maxVisionPages } from "../../src/library/pdf_vision.ts";
import { pageImageBounds } from "../../src/library/pdf_reader.ts";
import { extractPdf, loadMupdf } from "../../src/adapters/pdf/mupdf_extraction.ts";
import { silentLogger } from "../../src/core/ports.ts";
import { FakeLlmServer, ollamaText, openAiText } from "../fakes/fake_llm_server.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";
import { call, tempHome, toolDeps } from "../tools/tool_harness.ts";

/** A vision model on the fake server (`/v1` base URL: OpenAI-compatible wire format). */
function visionModel(baseUrl: string) {
  const llm = defaultConfig().llm;
  llm.retries = 0;
  llm.models.vision = { provider: "", base_url: baseUrl, model: "llava-tiny", api_key: "" };
  return createRoleModel(llm, "vision", { fetch, logger: silentLogger, sleep })!;
}

/** Decodes a base64 PNG and returns its width and height (IHDR). */
function pngSize(base64: string): { width: number; height: number; bytes: number } {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  const view = new DataView(bytes.buffer);
  return { width: view.getUint32(16), height: view.getUint32(20), bytes: bytes.length };
}

for (const wire of ["ollama", "openai"] as const) {
  Deno.test(`pdf_extract sends an image-only page to the vision model (${wire} wire format)`, async () => {
    const server = FakeLlmServer.start().reply(
      wire === "ollama" ? ollamaText("INVOICE 4711\nTotal: 99 EUR") : openAiText("INVOICE 4711"),
    );
    const home = tempHome();
    try {
      Deno.writeFileSync(
        join(home.home, "scan.pdf"),
        buildPdf([{ image: true }, { text: "Back" }]),
      );
      const model = visionModel(wire === "ollama" ? server.url : `${server.url}/v1`);
      const tool = pdfExtractTool(toolDeps(home, () => {}, { visionModel: model }));
      const result = await call(tool, { path: "scan.pdf" });
      assert.equal(result.outcome, "ok");
      assert.match(
        result.text,
        /--- page 1 ---\n\[image-only page, read by the vision model llava-tiny; may contain misreadings\]\nINVOICE 4711/,
      );
      assert.match(result.text, /--- page 2 ---\nBack/);
      assert.equal(server.chatRequests.length, 1, "only the image-only page goes to the model");
      // deno-lint-ignore no-explicit-any
      const body = server.chatRequests[0].body as any;
      assert.equal(body.model, "llava-tiny");
      assert.ok(!body.tools?.length);
      let image: string;
      if (wire === "ollama") {
        assert.equal(server.chatRequests[0].path, "/api/chat");
        assert.match(body.messages[0].content, /^Transcribe this scanned document page/);
        image = body.messages[0].images[0];
      } else {
        assert.equal(server.chatRequests[0].path, "/v1/chat/completions");
        const [text, part] = body.messages[0].content;
        assert.equal(text.type, "text");
        assert.match(text.text, /^Transcribe/);
        assert.equal(part.type, "image_url");
        assert.match(part.image_url.url, /^data:image\/png;base64,/);
        image = part.image_url.url.slice("data:image/png;base64,".length);
      }
      const size = pngSize(image);
      assert.ok(Math.max(size.width, size.height) <= pageImageBounds.maxSidePixels);
      assert.ok(size.width > 500, `rendered large enough to read (${size.width} px)`);
      assert.ok(size.bytes <= pageImageBounds.maxPngBytes);
    } finally {
      home.dispose();
      await server.close();
    }
  });
}

Deno.test("at most a few image-only pages go to the vision model; a failure is reported", async () => {
  const server = FakeLlmServer.start().reply(ollamaText("page one"), ollamaText("page two"));
  const home = tempHome();
  try {
    const scans = Array.from({ length: maxVisionPages + 2 }, () => ({ image: true as const }));
    Deno.writeFileSync(join(home.home, "many.pdf"), buildPdf(scans));
    const tool = pdfExtractTool(toolDeps(home, () => {}, { visionModel: visionModel(server.url) }));
    const result = await call(tool, { path: "many.pdf", first: maxVisionPages + 2, last: 0 });
    assert.equal(server.chatRequests.length, maxVisionPages);
    assert.match(result.text, /--- page 1 ---\n\[image-only page, read by .*\]\npage one/);
    assert.match(result.text, /--- page 2 ---\n\[image-only page, read by .*\]\npage two/);
    // The third request finds no queued reply: the fake server answers 500.
    assert.match(result.text, /--- page 3 ---\n\[image-only page: the vision model failed: /);
    assert.match(
      result.text,
      new RegExp(
        `--- page 4 ---\\n\\[image-only page: not read; the vision model reads at most ${maxVisionPages} pages`,
      ),
    );
  } finally {
    home.dispose();
    await server.close();
  }
});

Deno.test("without a vision model an image-only page says how to have it read", async () => {
  const home = tempHome();
  try {
    Deno.writeFileSync(join(home.home, "scan.pdf"), buildPdf([{ image: true }]));
    const result = await call(pdfExtractTool(toolDeps(home)), { path: "scan.pdf" });
    assert.match(result.text, /configuring llm\.models\.vision \(a vision model\) would read it/);
  } finally {
    home.dispose();
  }
});

Deno.test("a page that renders too large is rendered smaller until it fits the PNG cap", async () => {
  const mupdf = await loadMupdf();
  // A full-page image of noise: its PNG cannot be compressed below the cap at full size.
  const document = new mupdf.PDFDocument();
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 1200, 1700], false);
  const pixels = pixmap.getPixels();
  let seed = 7;
  for (let index = 0; index < pixels.length; index++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    pixels[index] = seed >>> 24;
  }
  const image = document.addImage(new mupdf.Image(pixmap));
  const resources = document.addObject({ XObject: { Im0: image } });
  document.insertPage(
    -1,
    document.addPage([0, 0, 595, 842], 0, resources, "q 595 0 0 842 0 0 cm /Im0 Do Q"),
  );
  const bytes = document.saveToBuffer("compress").asUint8Array().slice();
  const result = extractPdf(mupdf, bytes, {
    first: 1,
    last: 0,
    maxPageChars: 100,
    renderImagePages: 1,
  });
  assert.equal(result.status, "ok");
  const [page] = result.status === "ok" ? result.contents.pages : [];
  assert.ok(page.png, "rendered");
  const size = pngSize(page.png!);
  assert.ok(size.bytes <= pageImageBounds.maxPngBytes, `${size.bytes} bytes`);
  assert.ok(Math.max(size.width, size.height) <= pageImageBounds.maxSidePixels / 2, "halved");
  const none = extractPdf(mupdf, bytes, { first: 1, last: 0, maxPageChars: 100 });
  assert.equal(none.status === "ok" && none.contents.pages[0].png, undefined, "not asked: none");
});

Deno.test("the vision model is asked about at most maxVisionPages pages, whatever the PDF process returned", async () => {
  const { readImagePages } = await import("../../src/library/pdf_vision.ts");
  let calls = 0;
  const model = {
    provider: "counting",
    model: "counting",
    chat: () => {
      calls++;
      return Promise.resolve({ content: "text", toolCalls: [] });
    },
    status: () => Promise.resolve({ ok: true }),
  } as unknown as Parameters<typeof readImagePages>[0];
  // The PDF subprocess parses hostile files: its answer is bounded, not trusted to be.
  const pages = Array.from({ length: 7 }, (_, index) => ({
    number: index + 1,
    text: "",
    cutChars: 0,
    images: 1,
    png: "iVBORw0KGgo=",
  }));
  const readings = await readImagePages(model, pages, 100);
  assert.equal(calls, maxVisionPages);
  assert.equal(readings.size, maxVisionPages);
});
