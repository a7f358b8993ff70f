/**
 * `radar library scan`: the plan for a backlog of real comics and PDFs (dry run), JSON, and the
 * readable failures; --apply without a person: nothing without a grant, what the standing grants
 * cover with them (journaled, undone by `radar undo`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.ts";
import { memoryIo } from "../helpers/memory_io.ts";
import { withCliHome } from "../helpers/cli_home.ts";
import { buildCbz, buildRar4, comicInfoXml, pages, pngImage } from "../helpers/comic_factory.ts";
import { buildPdf } from "../helpers/pdf_factory.ts";

const layout = 'library:\n  comics: "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz"\n' +
  '  documents: "~/Documents/{author}/{title}.pdf"\n';

async function backlog(home: string): Promise<void> {
  const inbox = join(home, "Inbox");
  Deno.mkdirSync(join(inbox, "sub"), { recursive: true });
  Deno.mkdirSync(join(home, "Comics/Saga"), { recursive: true });
  Deno.writeFileSync(join(inbox, "Saga 054 (2018) (digital).cbz"), await buildCbz(pages(3)));
  Deno.writeFileSync(
    join(inbox, "sub/Saga_055.cbz"),
    await buildCbz([
      { name: "ComicInfo.xml", text: comicInfoXml({ Series: "Saga", Number: "55", Year: 2018 }) },
      ...pages(2),
    ]),
  );
  Deno.writeFileSync(
    join(inbox, "Batman - The Long Halloween 01 (of 13) (1996).cbr"),
    buildRar4([{ name: "p1.png", bytes: pngImage(4, 4) }]),
  );
  Deno.writeFileSync(join(inbox, "scan.cbz"), await buildCbz(pages(1)));
  Deno.writeFileSync(join(inbox, "broken.cbz"), new TextEncoder().encode("nope"));
  Deno.writeFileSync(join(inbox, ".hidden.cbz"), await buildCbz(pages(1)));
  Deno.writeFileSync(
    join(inbox, "paper.pdf"),
    buildPdf([{ text: "x" }], { title: "Attention", author: "Vaswani" }),
  );
  // Taken already: the plan picks a free name, never this one.
  Deno.writeFileSync(join(home, "Comics/Saga/Saga #054 (2018).cbz"), new Uint8Array([1]));
}

Deno.test("radar library scan plans a backlog: places, tags, collisions, skips; nothing changes", async () => {
  await withCliHome(async (env, home) => {
    Deno.writeTextFileSync(join(home, "radar.yaml"), layout);
    await backlog(home);
    const before = [...Deno.readDirSync(join(home, "Inbox"))].map((entry) => entry.name).sort();
    const io = memoryIo({ ...env, RADAR_CONFIG: join(home, "radar.yaml") }, { cwd: home });
    const code = await runCli(["library", "scan", "Inbox"], io);
    assert.equal(code, 0, io.err.join(""));
    assert.equal(
      io.out.join(""),
      [
        "file    ~/Inbox/Batman - The Long Halloween 01 (of 13) (1996).cbr → ~/Comics/Batman - The Long Halloween/Batman - The Long Halloween #001 (1996).cbr",
        "file    ~/Inbox/Saga 054 (2018) (digital).cbz → ~/Comics/Saga/Saga #054 (2018) (2).cbz  tag Series, Number, Year",
        "broken  ~/Inbox/broken.cbz: not a zip or RAR archive",
        "file    ~/Inbox/paper.pdf → ~/Documents/Vaswani/Attention.pdf",
        "skip    ~/Inbox/scan.cbz: library.comics needs Number",
        "file    ~/Inbox/sub/Saga_055.cbz → ~/Comics/Saga/Saga #055 (2018).cbz",
        "6 files in ~/Inbox, 4 to file, 0 already in place, 1 need more than the file says, 1 unreadable. Nothing was changed; --apply files them.",
        "",
      ].join("\n"),
    );
    const after = [...Deno.readDirSync(join(home, "Inbox"))].map((entry) => entry.name).sort();
    assert.deepEqual(after, before);
    const json = memoryIo({ ...env, RADAR_CONFIG: join(home, "radar.yaml") }, { cwd: home });
    assert.equal(await runCli(["library", "scan", join(home, "Inbox"), "--json"], json), 0);
    const plan = JSON.parse(json.out.join(""));
    assert.equal(plan.applied, false);
    assert.deepEqual(plan.steps[1].tag, { Series: "Saga", Number: "54", Year: "2018" });
    assert.equal(plan.steps[1].target, join(home, "Comics/Saga/Saga #054 (2018) (2).cbz"));
  });
});

Deno.test("radar library scan: no layout is exit 2, a missing folder exit 3, one line each", async () => {
  await withCliHome(async (env, home) => {
    const io = memoryIo(env, { cwd: home });
    assert.equal(await runCli(["library", "scan", home], io), 2);
    assert.match(
      io.err.join(""),
      /^radar: Cannot scan: no library layout is set \(library\.comics or library\.documents in radar\.yaml\)\n$/,
    );
    Deno.writeTextFileSync(join(home, "radar.yaml"), layout);
    const missing = memoryIo({ ...env, RADAR_CONFIG: join(home, "radar.yaml") }, { cwd: home });
    assert.equal(await runCli(["library", "scan", "nowhere"], missing), 3);
    assert.match(missing.err.join(""), /^radar: Cannot scan ~\/nowhere: no such folder\n$/);
  });
});

Deno.test("radar library scan --apply without a person: nothing without a grant; the granted files tagged and filed, undoable", async () => {
  await withCliHome(async (env, home) => {
    const config = join(home, "radar.yaml");
    Deno.writeTextFileSync(config, layout);
    await backlog(home);
    const radar = async (...args: string[]) => {
      const io = memoryIo({ ...env, RADAR_CONFIG: config }, { cwd: home, interactive: false });
      assert.equal(await runCli(args, io), 0, io.err.join(""));
      return io.out.join("");
    };
    const saga = join(home, "Inbox/Saga 054 (2018) (digital).cbz");
    const original = Deno.readFileSync(saga);
    const refused = await radar("library", "scan", "Inbox", "--apply");
    assert.match(refused, /\n6 files in ~\/Inbox, 0 of 4 filed, /);
    assert.match(refused, /tag Series, Number, Year {2}NOT DONE: Cannot write ComicInfo\.xml into/);
    assert.deepEqual(Deno.readFileSync(saga), original, "no grant: nothing changed");
    Deno.writeTextFileSync(
      config,
      layout + 'grants:\n  - { tool: comic_info, arguments: { path: "~/Inbox/*.cbz" } }\n',
    );
    const applied = await radar("library", "scan", "Inbox", "--apply");
    assert.match(applied, /\n6 files in ~\/Inbox, 1 of 4 filed, /);
    const filed = join(home, "Comics/Saga/Saga #054 (2018) (2).cbz");
    assert.equal(Deno.statSync(filed).isFile, true);
    assert.equal(Deno.statSync(join(home, "Comics/Saga/Saga #054 (2018).cbz")).size, 1);
    assert.match(
      await radar("undo", "--list"),
      /^#1 .* move ~\/Inbox\/Saga 054 .* \(library scan\)\n$/,
    );
    assert.match(await radar("undo"), /^Undone #1: moved .* as it was before\.\n$/);
    assert.deepEqual(Deno.readFileSync(saga), original);
  });
});
