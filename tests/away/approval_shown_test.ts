/**
 * An approval is bound to what it showed (issue 31): the hash of the call as shown is stored when
 * it is asked. A record whose stored call was changed afterwards is refused however it is
 * approved (the CLI, the dashboard, the phone's button), in one line, and nothing runs; a page
 * that showed another version of the call cannot approve this one, and the phone's Approve runs
 * only from its page in a browser logged in to the dashboard (the hash alone does not do); the
 * unchanged record runs. A file write shows its change as a diff of the file as it was when
 * asked, bound to that file's state: a file changed or created since is refused.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { type AwayHome, withAwayHome } from "../helpers/away_home.ts";
import { shownHash } from "../../src/away/approval_shown.ts";

/** A heartbeat that proposes filing `name` (one pending approval) and its two button URLs. */
async function proposeFiling(home: AwayHome, name: string): Promise<[string, string]> {
  await home.dropPdf(name, "ACME GmbH Invoice 2026-11-02 Total 120.00 EUR");
  home.llm.reply(
    ollamaToolCall("pdf_extract", { path: `~/Downloads/${name}` }),
    ollamaToolCall("move_file", {
      source: `~/Downloads/${name}`,
      destination: `~/Documents/Filed/${name}`,
    }),
    ollamaText("Asked."),
  );
  await home.radar.heartbeat.tick({ trigger: "schedule" });
  const notice = home.notices().at(-1)!;
  const [approve, deny] = (notice.actions as Array<{ url: string }>).map((action) => action.url);
  return [approve, deny];
}

/** Changes a stored approval behind Radar's back, as anything with the database file could. */
function tamper(home: AwayHome, id: number, sql: string): void {
  const db = new DatabaseSync(join(home.env.RADAR_DATA_DIR, "radar.db"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.prepare(`UPDATE approvals SET ${sql} WHERE id = ?`).run(id);
  } finally {
    db.close();
  }
}

Deno.test("an approval whose stored call no longer matches what it showed is refused, nothing runs", async () => {
  await withAwayHome({}, async (home) => {
    const { approvals } = home.radar.away;
    const [approveUrl] = await proposeFiling(home, "scan_0042.pdf");
    const [record] = approvals.list({ pendingOnly: true });
    assert.equal(record.shownHash, await shownHash(record), "bound when asked");

    // The destination is swapped in the database after the approval was shown.
    tamper(
      home,
      record.id,
      `arguments = '{"source":"~/Downloads/scan_0042.pdf","destination":"~/Public/scan_0042.pdf"}'`,
    );
    const refusal = `Approval #${record.id} was not run: its stored call no longer matches what ` +
      "was shown when it was asked; deny it.";
    const fromCli = await approvals.approve(record.id, "cli");
    assert.equal(fromCli.state, "changed");
    assert.equal(fromCli.text, refusal);
    const pressed = await home.approveOnPhone(approveUrl);
    assert.equal(pressed.status, 409);
    assert.equal(pressed.text, refusal);
    await assert.rejects(approvals.alwaysAllow(record.id, "dashboard"), { message: refusal });
    assert.deepEqual(await home.radar.away.grants.list(), [], "no grant from a changed approval");
    assert.ok(existsSync(join(home.home, "Downloads/scan_0042.pdf")), "nothing moved");
    assert.ok(!existsSync(join(home.home, "Public")));
    assert.equal(approvals.show(record.id).state, "pending", "it can still be denied");
    assert.equal(approvals.deny(record.id, "cli").state, "denied");

    // An approval asked before approvals were bound (no hash) never runs either.
    await proposeFiling(home, "scan_0043.pdf");
    const [older] = approvals.list({ pendingOnly: true });
    tamper(home, older.id, "shown_hash = NULL");
    const unbound = await approvals.approve(older.id, "cli");
    assert.equal(unbound.state, "changed");
    assert.match(unbound.text, /was asked before approvals were bound to what they show/);
    assert.ok(existsSync(join(home.home, "Downloads/scan_0043.pdf")));
  });
});

Deno.test("a yes from a page runs only the version that page showed", async () => {
  await withAwayHome({}, async (home) => {
    const { approvals } = home.radar.away;
    const [approveUrl] = await proposeFiling(home, "scan_0044.pdf");
    const [record] = approvals.list({ pendingOnly: true });
    // The button's page carries the hash of what it shows; another hash is another version.
    const page = await (await fetch(approveUrl)).text();
    assert.ok(!page.includes(record.shownHash!), "not logged in: the page shows no call");
    const form = (shown: string, cookie?: string) => ({
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(cookie ? { cookie } : {}),
      },
      body: `shown=${shown}`,
    });
    // The right hash without a login (whoever read the notice and knows the call) does nothing.
    const unseen = await fetch(approveUrl, form(record.shownHash!));
    assert.equal(unseen.status, 403);
    assert.match(await unseen.text(), /^Not approved: open the button's page and log in/);
    const cookie = await home.login();
    const other = await fetch(approveUrl, form("0".repeat(64), cookie));
    assert.equal(other.status, 409);
    assert.match(await other.text(), /the page you approved from showed another version of it/);
    // The dashboard's own Approve without the hash of a page that showed the call: refused too.
    for (const path of ["approve", "always"]) {
      const blind = await fetch(`${home.base}/approvals/${record.id}/${path}`, {
        method: "POST",
        headers: {
          cookie,
          origin: home.base,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "note=x",
      });
      assert.equal(blind.status, 400, path);
      assert.match(await blind.text(), /^Not approved: approve it on the approval's page/);
    }
    assert.deepEqual(await home.radar.away.grants.list(), []);
    assert.ok(existsSync(join(home.home, "Downloads/scan_0044.pdf")));

    const same = await approvals.approve(record.id, "dashboard", undefined, record.shownHash);
    assert.equal(same.state, "done", same.text);
    assert.ok(existsSync(join(home.home, "Documents/Filed/scan_0044.pdf")));
  });
});

Deno.test("a file write's approval shows its change as a diff of the file as it was", async () => {
  await withAwayHome({ folders: ["Notes"] }, async (home) => {
    Deno.writeTextFileSync(join(home.home, "Notes/todo.txt"), "milk\neggs\nbread\n");
    await home.dropPdf("list.pdf", "Shopping: milk, butter, bread");
    home.llm.reply(
      ollamaToolCall("pdf_extract", { path: "~/Downloads/list.pdf" }),
      ollamaToolCall("write_file", { path: "~/Notes/todo.txt", content: "milk\nbutter\nbread\n" }),
      ollamaText("Asked."),
    );
    await home.radar.heartbeat.tick({ trigger: "schedule" });
    const [record] = home.radar.away.approvals.list({ pendingOnly: true });
    assert.equal(record.tool, "write_file");
    const diff = record.preview ?? "";
    assert.match(
      diff,
      /^--- ~\/Notes\/todo\.txt\tnow\n\+\+\+ ~\/Notes\/todo\.txt\tafter the write/m,
    );
    assert.match(diff, /\n milk\n-eggs\n\+butter\n bread\n/);
    assert.equal(record.shownHash, await shownHash(record), "the diff is part of what it shows");
  });
});

/** A heartbeat whose run read a PDF and wants to write `content` to ~/Notes/todo.txt. */
async function proposeWrite(home: AwayHome, content: string) {
  await home.dropPdf(`list-${home.notices().length}.pdf`, "Shopping: milk, butter, bread");
  home.llm.reply(
    ollamaToolCall("pdf_extract", { path: `~/Downloads/list-${home.notices().length}.pdf` }),
    ollamaToolCall("write_file", { path: "~/Notes/todo.txt", content }),
    ollamaText("Asked."),
  );
  await home.radar.heartbeat.tick({ trigger: "schedule" });
  const notice = home.notices().at(-1)!;
  const [approve] = (notice.actions as Array<{ url: string }>).map((action) => action.url);
  return { record: home.radar.away.approvals.list({ pendingOnly: true })[0], approve };
}

Deno.test("a file write's approval is refused when the file changed after its diff was shown", async () => {
  await withAwayHome({ folders: ["Notes"] }, async (home) => {
    const { approvals } = home.radar.away;
    const file = join(home.home, "Notes/todo.txt");
    Deno.writeTextFileSync(file, "milk\neggs\n");
    const changed = await proposeWrite(home, "milk\nbutter\n");
    assert.match(changed.record.previewBase ?? "", /^sha256:[0-9a-f]{64}$/);
    assert.equal(changed.record.shownHash, await shownHash(changed.record), "the base is shown");

    // The user adds a line after the diff was shown: the yes is not for this file.
    Deno.writeTextFileSync(file, "milk\neggs\ncall the bank\n");
    const refusal = `Approval #${changed.record.id} was not run: the file it writes was ` +
      "different when its change was shown; deny it, and look at the file first.";
    const fromCli = await approvals.approve(changed.record.id, "cli");
    assert.deepEqual([fromCli.state, fromCli.text], ["changed", refusal]);
    const fromPhone = await home.approveOnPhone(changed.approve);
    assert.match(fromPhone.page, /Shown against the file as it was when asked \(sha256:/);
    assert.deepEqual([fromPhone.status, fromPhone.text], [409, refusal]);
    await assert.rejects(approvals.alwaysAllow(changed.record.id, "dashboard"), {
      message: refusal,
    });
    assert.deepEqual(await home.radar.away.grants.list(), []);
    assert.equal(Deno.readTextFileSync(file), "milk\neggs\ncall the bank\n", "not overwritten");
    assert.equal(approvals.deny(changed.record.id, "cli").state, "denied");

    // A file that did not exist when asked and exists now: refused the same way.
    Deno.removeSync(file);
    const created = await proposeWrite(home, "milk\n");
    assert.equal(created.record.previewBase, "absent");
    Deno.writeTextFileSync(file, "written meanwhile\n");
    const late = await approvals.approve(created.record.id, "cli");
    assert.equal(late.state, "changed");
    assert.match(late.text, /the file it writes did not exist yet when its change was shown/);
    assert.equal(Deno.readTextFileSync(file), "written meanwhile\n");
    approvals.deny(created.record.id, "cli");

    // Unchanged since it was shown: it runs.
    const same = await proposeWrite(home, "milk\nbutter\n");
    const done = await home.approveOnPhone(same.approve);
    assert.equal(done.status, 200, done.text);
    assert.equal(Deno.readTextFileSync(file), "milk\nbutter\n");
  });
});
