/**
 * Filing while away, end to end with the stand-in model over HTTP and real files in watched
 * folders: a comic lands in ~/Comics/Inbox and a PDF in ~/Downloads at night; with the standing
 * grants the user set once (`radar grants add`), one heartbeat tags both (ComicInfo.xml, PDF Info)
 * and files them at the library layout's places, each as one journaled change, one notification
 * says so with Undo buttons, and the button or `radar undo` puts each back as it was; without a grant, nothing changes and each file gets one pending
 * approval, whose yes files it exactly as the model asked.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as zip from "@zip.js/zip.js";
import { runCli } from "../../src/cli/program.ts";
import { createPdfReader } from "../../src/adapters/pdf/subprocess_pdf_reader.ts";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { type AwayHome, withAwayHome } from "../helpers/away_home.ts";
import { buildCbz, pages } from "../helpers/comic_factory.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";

const comicWatcher = `  - path: "~/Comics/Inbox"
    pattern: "*.cb?"
    action: "new_comic_detected"
`;
const layouts = `library:
  comics: "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz"
  documents: "~/Documents/{kind}/{date} {sender} {kind}.pdf"
`;
const comicName = "Saga 054 (2018) (digital).cbz";
const comicPath = `~/Comics/Inbox/${comicName}`;
const comicFiled = "Comics/Saga/Saga #054 (2018).cbz";
const pdfText = "ACME GmbH Invoice 2026-11-02 Total 120.00 EUR";
const pdfFiled = "Documents/invoice/2026-11-02 ACME invoice.pdf";

/** Runs `radar ARGS` in-process; answers its output (fails the test on a non-zero exit). */
async function radarCli(home: AwayHome, ...args: string[]): Promise<string> {
  const io = memoryIo(home.env, { cwd: home.home });
  assert.equal(await runCli(args, io), 0, io.err.join(""));
  return io.out.join("");
}

/** Drops a comic without ComicInfo.xml and a PDF; answers their original bytes. */
async function dropBoth(home: AwayHome): Promise<{ comic: Uint8Array; pdf: Uint8Array }> {
  const comic = await buildCbz(pages(3));
  const pdf = buildPdf([{ text: pdfText }]);
  await home.drop(`Comics/Inbox/${comicName}`, comic);
  await home.drop("Downloads/scan_0042.pdf", pdf);
  assert.equal(home.radar.queue.pendingCount(), 2);
  return { comic, pdf };
}

/** The stand-in model files both the way the comic-filing and pdf-filing skills say. */
function fileBoth(home: AwayHome): void {
  home.llm.reply(
    ollamaToolCall("comic_info", { path: comicPath }),
    ollamaToolCall("comic_info", {
      path: comicPath,
      set: { Series: "Saga", Number: "54", Year: 2018 },
      file: true,
    }),
    ollamaToolCall("pdf_extract", { path: "~/Downloads/scan_0042.pdf" }),
    ollamaToolCall("comic_info", {
      path: "~/Downloads/scan_0042.pdf",
      set: {
        title: "ACME invoice 2026-11-02",
        author: "ACME",
        subject: "invoice",
        kind: "invoice",
        date: "2026-11-02",
        sender: "ACME",
      },
      file: true,
    }),
    ollamaText("Filed Saga #54 and the ACME invoice."),
  );
}

async function comicInfoXmlOf(path: string): Promise<string> {
  const reader = new zip.ZipReader(new zip.Uint8ArrayReader(Deno.readFileSync(path)));
  const entry = (await reader.getEntries()).find((item) => item.filename === "ComicInfo.xml");
  assert.ok(entry, "ComicInfo.xml is in the archive");
  return await (entry as zip.FileEntry).getData(new zip.TextWriter());
}

async function pdfInfoOf(path: string): Promise<Record<string, string>> {
  const result = await createPdfReader({ timeout_seconds: 60 }, Deno.env.toObject()).read({
    bytes: Deno.readFileSync(path),
    first: 0,
    last: 0,
    maxPageChars: 0,
    signal: new AbortController().signal,
  });
  assert.equal(result.status, "ok");
  return result.status === "ok" ? result.contents.metadata : {};
}

const homeOptions = { folders: ["Comics/Inbox"], watchers: comicWatcher, yaml: layouts };

Deno.test("with standing grants a comic and a PDF are tagged and filed unattended; radar undo puts each back", async () => {
  await withAwayHome(homeOptions, async (home) => {
    const { radar } = home;
    assert.match(
      await radarCli(home, "grants", "add", "comic_info", "path=~/Comics/Inbox/*.cbz"),
      /^Added grant 1: comic_info path=~\/Comics\/Inbox\/\*\.cbz/,
    );
    await radarCli(home, "grants", "add", "comic_info", "path=~/Downloads/*.pdf");
    const original = await dropBoth(home);
    fileBoth(home);
    const report = await radar.heartbeat.tick({ trigger: "schedule" });
    assert.equal(report.outcome, "ran", report.reason);
    const results = report.result!.toolExecutions.map((execution) => execution.result);
    assert.deepEqual(results.map((result) => result.outcome), ["ok", "ok", "ok", "ok"]);
    assert.match(results[1].text, /\nFiled as: ~\/Comics\/Saga\/Saga #054 \(2018\)\.cbz\n/);
    assert.match(
      results[3].text,
      /\nFiled as: ~\/Documents\/invoice\/2026-11-02 ACME invoice\.pdf\n/,
    );
    assert.deepEqual(radar.away.approvals.list({ pendingOnly: true }), []);
    assert.deepEqual((await radar.away.grants.list()).map((grant) => grant.uses), [1, 1]);

    const comic = join(home.home, comicFiled);
    const pdf = join(home.home, pdfFiled);
    assert.equal(existsSync(join(home.home, "Comics/Inbox", comicName)), false);
    assert.equal(existsSync(join(home.home, "Downloads/scan_0042.pdf")), false);
    const xml = await comicInfoXmlOf(comic);
    assert.match(xml, /<Series>Saga<\/Series>/);
    assert.match(xml, /<Number>54<\/Number>/);
    assert.match(xml, /<Year>2018<\/Year>/);
    const info = await pdfInfoOf(pdf);
    assert.equal(info.Title, "ACME invoice 2026-11-02");
    assert.equal(info.Author, "ACME");
    assert.deepEqual(
      radar.away.journal.recent(5).map((entry) => [entry.tool, entry.kind, entry.runKind]),
      [["comic_info", "move", "heartbeat"], ["comic_info", "move", "heartbeat"]],
    );

    // One notification says what changed, with an Undo button per change.
    const [notice, ...moreNotices] = home.notices();
    assert.deepEqual(moreNotices, []);
    assert.equal(notice.title, "Radar changed 2 files");
    // The file names came from what the run read: they stay behind the link.
    assert.equal(
      notice.message,
      [
        "#1 move by comic_info",
        "#2 move by comic_info",
        "Which files: radar undo --list, or the approvals page.",
        "Undo: radar undo 1 · radar undo 2",
      ].join("\n"),
    );
    assert.equal(notice.click, `${home.base}/approvals`);
    const buttons = notice.actions as Array<{ label: string; url: string; method: string }>;
    assert.deepEqual(buttons.map((button) => [button.label, button.method]), [
      ["Undo #1", "POST"],
      ["Undo #2", "POST"],
    ]);
    const pressed = await fetch(buttons[0].url, { method: "POST" });
    assert.equal(pressed.status, 200);
    assert.equal(await pressed.text(), "Undone: change #1 is back as it was.");
    assert.match(
      await radarCli(home, "undo"),
      /^Undone #2: moved ~\/Documents\/invoice\/2026-11-02 ACME invoice\.pdf back to ~\/Downloads\/scan_0042\.pdf as it was before\.\n$/,
    );
    assert.deepEqual(Deno.readFileSync(join(home.home, "Downloads/scan_0042.pdf")), original.pdf);
    assert.deepEqual(Deno.readFileSync(join(home.home, "Comics/Inbox", comicName)), original.comic);
    assert.equal(existsSync(join(home.home, "Documents")), false);
    assert.equal(existsSync(join(home.home, "Comics/Saga")), false);
  });
});

Deno.test("without a grant nothing changes: one pending approval each; approving one files it", async () => {
  await withAwayHome(homeOptions, async (home) => {
    const { radar } = home;
    const original = await dropBoth(home);
    fileBoth(home);
    const report = await radar.heartbeat.tick({ trigger: "schedule" });
    assert.equal(report.outcome, "ran", report.reason);
    const pending = radar.away.approvals.list({ pendingOnly: true }).sort((a, b) => a.id - b.id);
    assert.deepEqual(
      pending.map((approval) => [approval.tool, JSON.parse(approval.arguments).path]),
      [["comic_info", comicPath], ["comic_info", "~/Downloads/scan_0042.pdf"]],
    );
    assert.deepEqual(Deno.readFileSync(join(home.home, "Comics/Inbox", comicName)), original.comic);
    assert.deepEqual(Deno.readFileSync(join(home.home, "Downloads/scan_0042.pdf")), original.pdf);
    assert.deepEqual(radar.away.journal.recent(5), []);
    assert.equal(home.notices().length, 2, "one question per file");

    const approved = await radarCli(home, "approvals", "approve", String(pending[0].id));
    assert.match(approved, /Filed as: ~\/Comics\/Saga\/Saga #054 \(2018\)\.cbz/);
    assert.match(await comicInfoXmlOf(join(home.home, comicFiled)), /<Series>Saga<\/Series>/);
    const [change] = radar.away.journal.recent(5);
    assert.equal(change.approvalId, pending[0].id);
    await radarCli(home, "undo");
    assert.deepEqual(Deno.readFileSync(join(home.home, "Comics/Inbox", comicName)), original.comic);
  });
});
