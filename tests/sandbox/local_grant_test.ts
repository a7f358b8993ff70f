/**
 * A good local plugin with a narrow grant (read one folder, reach one host) works through a real
 * plugin host, and the same code without the grant is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emptyGrant, narrowGrant } from "../../src/sandbox/permissions.ts";
import { protectedLocations, radarPlacesFrom } from "../../src/core/protected_paths.ts";
import { inlineCode, startProcess } from "./helpers.ts";

const code = inlineCode(
  "notes_digest",
  `export function digest(args: { folder: string; url: string }): Promise<string> {
     const names = [...Deno.readDirSync(args.folder)].map((entry) => entry.name).sort();
     return fetch(args.url).then((response) => response.text()).then((text) => names.join(",") + " | " + text);
   }
   export function peek(args: { path: string }): string { return Deno.readTextFileSync(args.path); }`,
  ["digest", "peek"],
);

Deno.test("a local plugin can use exactly its grant and nothing else", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-grant-" });
  const notes = join(dir, "notes");
  Deno.mkdirSync(notes);
  Deno.writeTextFileSync(join(notes, "a.md"), "A");
  Deno.writeTextFileSync(join(notes, "b.md"), "B");
  Deno.writeTextFileSync(join(dir, "outside.txt"), "OUTSIDE");
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("headlines"),
  );
  const other = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("other"),
  );
  const url = `http://127.0.0.1:${server.addr.port}/`;
  const granted = startProcess(code, {
    ...emptyGrant,
    read: [notes],
    net: [`127.0.0.1:${server.addr.port}`],
  });
  const ungranted = startProcess(code);
  try {
    assert.deepEqual(await granted.call("digest", { folder: notes, url }), {
      outcome: "ok",
      text: "a.md,b.md | headlines",
    });
    const outside = await granted.call("peek", { path: join(dir, "outside.txt") });
    assert.equal(outside.outcome, "error");
    assert.match(outside.text, /Requires read access/);
    const otherHost = await granted.call("digest", {
      folder: notes,
      url: `http://127.0.0.1:${other.addr.port}/`,
    });
    assert.match(otherHost.text, /Requires net access/);
    const refused = await ungranted.call("digest", { folder: notes, url });
    assert.equal(refused.outcome, "error");
    assert.match(refused.text, /Requires read access/);
  } finally {
    await granted.stop();
    await ungranted.stop();
    await server.shutdown();
    await other.shutdown();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a plugin that may read and write a folder cannot link its way out of it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-links-" });
  const work = join(dir, "work");
  Deno.mkdirSync(work);
  const secret = join(dir, "secret.txt");
  Deno.writeTextFileSync(secret, "TOP-SECRET");
  const linker = inlineCode(
    "linker",
    `export function symlink(args: { target: string; link: string }): string {
       Deno.symlinkSync(args.target, args.link);
       return Deno.readTextFileSync(args.link);
     }
     export function hardlink(args: { target: string; link: string }): string {
       Deno.linkSync(args.target, args.link);
       return Deno.readTextFileSync(args.link);
     }
     export function move(args: { target: string; link: string }): string {
       Deno.renameSync(args.target, args.link);
       return Deno.readTextFileSync(args.link);
     }`,
    ["symlink", "hardlink", "move"],
  );
  const process = startProcess(linker, { ...emptyGrant, read: [work], write: [work] });
  try {
    for (const name of ["symlink", "hardlink", "move"]) {
      const result = await process.call(name, { target: secret, link: join(work, name) });
      assert.equal(result.outcome, "error", `${name}: ${result.text}`);
      assert.match(result.text, /NotCapable/, name);
      assert.doesNotMatch(result.text, /TOP-SECRET/);
    }
    assert.equal(Deno.readTextFileSync(secret), "TOP-SECRET");
    assert.deepEqual([...Deno.readDirSync(work)], []);
  } finally {
    await process.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a grant of ~/.local/share runs narrowed: Radar's database and keyrings are out of reach", async () => {
  const home = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "radar-narrow-" }));
  const share = join(home, ".local/share");
  const dataDir = join(share, "radar");
  for (const folder of [dataDir, join(share, "keyrings"), join(share, "notes")]) {
    Deno.mkdirSync(folder, { recursive: true });
  }
  Deno.writeTextFileSync(join(dataDir, "radar.db"), "DATABASE");
  Deno.writeTextFileSync(join(share, "keyrings/login.keyring"), "KEYRING");
  Deno.writeTextFileSync(join(share, "notes/a.md"), "NOTE");
  const narrowed = narrowGrant(
    { ...emptyGrant, read: [share] },
    protectedLocations(radarPlacesFrom({ HOME: home }, dataDir)),
    (path) => {
      try {
        return [...Deno.readDirSync(path)].map((entry) => entry.name);
      } catch {
        return undefined;
      }
    },
  );
  assert.deepEqual(narrowed.grant.read, [join(share, "notes")]);
  const process = startProcess(code, narrowed.grant);
  try {
    const note = await process.call("peek", { path: join(share, "notes/a.md") });
    assert.deepEqual(note, { outcome: "ok", text: "NOTE" });
    for (const path of [join(dataDir, "radar.db"), join(share, "keyrings/login.keyring")]) {
      const result = await process.call("peek", { path });
      assert.equal(result.outcome, "error", path);
      assert.match(result.text, /Requires read access/);
    }
  } finally {
    await process.stop();
    Deno.removeSync(home, { recursive: true });
  }
});
